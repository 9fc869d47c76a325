import { type GpuHealth, judgeGpuHealth, type SeriesSummary, summarizeSeries } from '../domain/gpu-health';
import { gpuDimensions, gpuMetricNamespace, NVIDIA_SMI_METRICS } from '../domain/gpu-telemetry';
import type { LeaseInstance } from '../domain/lease';
import { type Datapoint, memoryUsedPercent } from '../domain/scaling';
import { gpuIndexesOf } from '../domain/waste/gpu-indexes';
import { LeaseNotFoundError } from '../errors';
import type { MetricQuery, MetricReader } from '../ports/metrics';
import type { ControlPlane } from './dependencies';

export interface MetricsWindow {
  readonly fromMs: number;
  readonly toMs: number;
  readonly periodSeconds: number;
}

export interface GpuSeries extends SeriesSummary {
  readonly unit: string;
  readonly datapoints: readonly Datapoint[];
}

export interface GpuMetrics {
  readonly index: number;
  readonly utilization: GpuSeries;
  readonly memoryUsed: GpuSeries;
  readonly temperature: GpuSeries;
  readonly power: GpuSeries;
  /** As of the end of the window; only for GPUs still running. */
  readonly health?: GpuHealth | undefined;
}

export interface InstanceGpuMetrics {
  readonly instanceId: string;
  readonly gpus: readonly GpuMetrics[];
}

/** The agent series read per GPU, in this order. */
const READ = ['utilization', 'memoryUsed', 'memoryTotal', 'temperature', 'power'] as const;

const series = (unit: string, datapoints: readonly Datapoint[]): GpuSeries => ({
  unit,
  ...summarizeSeries(datapoints.map((d) => d.value)),
  datapoints: datapoints.map((d) => ({ timestampMs: d.timestampMs, value: Math.round(d.value * 10) / 10 })),
});

/**
 * Per instance and GPU of a lease (every GPU of a multi-GPU instance): utilization, memory used (%), temperature
 * and power over the window, each with avg / p95 / max of its period values,
 * in one metric read.
 */
export async function readLeaseGpuMetrics(
  deps: Pick<ControlPlane, 'leases' | 'catalog'> & { readonly metrics: MetricReader },
  tenantId: string,
  leaseId: string,
  window: MetricsWindow,
  temperatureLimitC: number,
): Promise<InstanceGpuMetrics[]> {
  const lease = await deps.leases.get(tenantId, leaseId);
  if (!lease) throw new LeaseNotFoundError(leaseId);
  const instances = lease.instances.filter(
    (i) => i.launchedAtMs < window.toMs && (i.endedAtMs === undefined || i.endedAtMs > window.fromMs),
  );
  const gpus = instances.flatMap((instance) =>
    gpuIndexesOf(deps.catalog, instance.instanceType).map((index) => ({ instance, index })),
  );
  const queries: MetricQuery[] = gpus.flatMap(({ instance, index }) =>
    READ.map((metric) => ({
      namespace: gpuMetricNamespace(lease),
      metricName: NVIDIA_SMI_METRICS[metric],
      dimensions: gpuDimensions(instance.instanceId, index),
      statistic: 'Average',
      periodSeconds: window.periodSeconds,
    })),
  );
  const results = await deps.metrics.read(queries, window.fromMs, window.toMs);
  const byGpu = gpus.map(({ instance, index }, i) => {
    const at = (j: number) => results[i * READ.length + j] ?? [];
    const read = { utilization: at(0), used: at(1), total: at(2), temperature: at(3), power: at(4) };
    return { instance, metrics: gpuMetrics(instance, index, read, window, temperatureLimitC) };
  });
  return instances.map((instance) => ({
    instanceId: instance.instanceId,
    gpus: byGpu.filter((g) => g.instance === instance).map((g) => g.metrics),
  }));
}

function gpuMetrics(
  instance: LeaseInstance,
  index: number,
  read: Record<'utilization' | 'used' | 'total' | 'temperature' | 'power', Datapoint[]>,
  window: MetricsWindow,
  temperatureLimitC: number,
): GpuMetrics {
  const all = Object.values(read).flat();
  const newest = all.length === 0 ? undefined : Math.max(...all.map((d) => d.timestampMs));
  return {
    index,
    utilization: series('%', read.utilization),
    memoryUsed: series('%', memoryUsedPercent(read.used, read.total)),
    temperature: series('°C', read.temperature),
    power: series('W', read.power),
    health:
      instance.endedAtMs === undefined
        ? judgeGpuHealth({
            temperature: read.temperature,
            newestDatapointMs: newest,
            launchedAtMs: instance.launchedAtMs,
            nowMs: window.toMs,
            temperatureLimitC,
          })
        : undefined,
  };
}
