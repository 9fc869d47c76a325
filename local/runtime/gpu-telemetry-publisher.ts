import { type CloudWatchClient, type MetricDatum, PutMetricDataCommand } from '@aws-sdk/client-cloudwatch';
import { GPU_METRIC_NAMESPACE, gpuDimensions, NVIDIA_SMI_METRICS } from '../../shared/domain/gpu-telemetry';

/** What nvidia-smi reports for one GPU at one instant. */
export interface GpuSample {
  readonly instanceId: string;
  readonly gpuIndex: number;
  readonly atMs: number;
  readonly utilizationPercent: number;
  readonly memoryUsedMiB: number;
  readonly memoryTotalMiB: number;
  readonly temperatureC: number;
  readonly powerW: number;
}

/** PutMetricData takes at most 1,000 datums a call. */
const MAX_DATUMS = 1000;

function datumsOf(sample: GpuSample): MetricDatum[] {
  const Dimensions = Object.entries(gpuDimensions(sample.instanceId, sample.gpuIndex)).map(
    ([Name, Value]) => ({
      Name,
      Value,
    }),
  );
  const Timestamp = new Date(sample.atMs);
  const datum = (MetricName: string, Value: number, Unit: MetricDatum['Unit']): MetricDatum => ({
    MetricName,
    Dimensions,
    Timestamp,
    Value,
    Unit,
  });
  return [
    datum(NVIDIA_SMI_METRICS.utilization, sample.utilizationPercent, 'Percent'),
    datum(NVIDIA_SMI_METRICS.memoryUsed, sample.memoryUsedMiB, 'Megabytes'),
    datum(NVIDIA_SMI_METRICS.memoryTotal, sample.memoryTotalMiB, 'Megabytes'),
    datum(NVIDIA_SMI_METRICS.temperature, sample.temperatureC, 'None'),
    datum(NVIDIA_SMI_METRICS.power, sample.powerW, 'None'),
  ];
}

/**
 * Publishes GPU samples under the names, namespace, dimensions and units the
 * CloudWatch agent's nvidia_gpu plugin uses, so that everything reading them
 * locally reads what it reads on AWS.
 */
export async function publishGpuSamples(
  client: CloudWatchClient,
  samples: readonly GpuSample[],
): Promise<void> {
  const datums = samples.flatMap(datumsOf);
  for (let start = 0; start < datums.length; start += MAX_DATUMS) {
    await client.send(
      new PutMetricDataCommand({
        Namespace: GPU_METRIC_NAMESPACE,
        MetricData: datums.slice(start, start + MAX_DATUMS),
      }),
    );
  }
}
