import {
  GPU_INDEXES,
  GPU_METRIC_NAMESPACE,
  gpuDimensions,
  NVIDIA_SMI_METRICS,
} from '../domain/gpu-telemetry';
import { hourSamples, type MeasuredGpu, UTILIZATION_HOUR_MS } from '../domain/gpu-utilization';
import type { LeaseView } from '../domain/lease';
import type { MetricQuery, MetricReader } from '../ports/metrics';

/** Sum and SampleCount: the hour's average weighted by how many minutes the agent really sent. */
const STATISTICS = ['Sum', 'SampleCount'] as const;

/**
 * The utilization telemetry of every GPU of `leases` that ran within
 * [fromMs, toMs), by clock hour, in one batched read: two metrics per GPU at
 * a one-hour period (GetMetricData is priced per metric, not per datapoint,
 * and an hour is the finest period CloudWatch keeps past 63 days). The window
 * is widened to whole hours so that every period is a clock hour.
 */
export async function readGpuUtilization(
  metrics: MetricReader,
  leases: readonly LeaseView[],
  fromMs: number,
  toMs: number,
  nowMs: number,
): Promise<MeasuredGpu[]> {
  const gpus = leases.flatMap((lease) =>
    lease.instances
      .map((i) => ({ instanceId: i.instanceId, fromMs: i.launchedAtMs, toMs: i.endedAtMs ?? nowMs }))
      .filter((run) => run.fromMs < toMs && run.toMs > fromMs)
      .flatMap((run) => GPU_INDEXES.map((index) => ({ run, index }))),
  );
  if (gpus.length === 0) return [];
  const queries: MetricQuery[] = gpus.flatMap(({ run, index }) =>
    STATISTICS.map((statistic) => ({
      namespace: GPU_METRIC_NAMESPACE,
      metricName: NVIDIA_SMI_METRICS.utilization,
      dimensions: gpuDimensions(run.instanceId, index),
      statistic,
      periodSeconds: UTILIZATION_HOUR_MS / 1000,
    })),
  );
  const startMs = Math.floor(fromMs / UTILIZATION_HOUR_MS) * UTILIZATION_HOUR_MS;
  const endMs = Math.ceil(Math.min(toMs, nowMs) / UTILIZATION_HOUR_MS) * UTILIZATION_HOUR_MS;
  const results = await metrics.read(queries, startMs, Math.max(endMs, startMs + UTILIZATION_HOUR_MS));
  return gpus.map(({ run }, i) => ({
    ...run,
    hours: hourSamples(results[2 * i] ?? [], results[2 * i + 1] ?? []),
  }));
}
