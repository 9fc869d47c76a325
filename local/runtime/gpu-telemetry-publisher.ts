import { type CloudWatchClient, type MetricDatum, PutMetricDataCommand } from '@aws-sdk/client-cloudwatch';
import { gpuDimensions, gpuMetricNamespace, NVIDIA_SMI_METRICS } from '../../shared/domain/gpu-telemetry';

/** What nvidia-smi reports for one GPU at one instant. */
export interface GpuSample {
  /** The lease the instance serves: its samples go to the lease's own namespace. */
  readonly tenantId: string;
  readonly leaseId: string;
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
 * Publishes GPU samples under the names, dimensions and units the CloudWatch
 * agent's nvidia_gpu plugin uses, each lease's into its own namespace, so that
 * everything reading them locally reads what it reads on AWS. `client` is the
 * lease's: the local stand-in passes one signed with the lease's machine credentials.
 */
export async function publishGpuSamples(
  client: CloudWatchClient | ((sample: GpuSample) => CloudWatchClient | undefined),
  samples: readonly GpuSample[],
): Promise<void> {
  const byNamespace = new Map<string, { client: CloudWatchClient; samples: GpuSample[] }>();
  for (const sample of samples) {
    const namespace = gpuMetricNamespace(sample);
    const sender = typeof client === 'function' ? client(sample) : client;
    if (sender === undefined) continue;
    const group = byNamespace.get(namespace) ?? { client: sender, samples: [] };
    group.samples.push(sample);
    byNamespace.set(namespace, group);
  }
  for (const [namespace, group] of byNamespace) {
    const datums = group.samples.flatMap(datumsOf);
    for (let start = 0; start < datums.length; start += MAX_DATUMS) {
      await group.client.send(
        new PutMetricDataCommand({
          Namespace: namespace,
          MetricData: datums.slice(start, start + MAX_DATUMS),
        }),
      );
    }
  }
}
