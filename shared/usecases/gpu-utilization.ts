import type { PriceCatalog } from '../domain/catalog';
import { gpuDimensions, gpuMetricNamespace, NVIDIA_SMI_METRICS } from '../domain/gpu-telemetry';
import { type MeasuredGpu, periodSamples } from '../domain/gpu-utilization';
import type { LeaseView } from '../domain/lease';
import { gpuIndexesOf } from '../domain/waste/gpu-indexes';
import type { MetricQuery, MetricReader } from '../ports/metrics';

/** Sum and SampleCount: the hour's average weighted by how many minutes the agent really sent. */
const STATISTICS = ['Sum', 'SampleCount'] as const;

/**
 * The utilization telemetry of every GPU (every index of a multi-GPU instance) of `leases` that ran within
 * [fromMs, toMs), period by period (`periodMs`: a clock hour or a UTC day), in
 * one batched read: two metrics per GPU (GetMetricData is priced per metric,
 * not per datapoint; an hour is the finest period CloudWatch keeps past 63
 * days, and a day returns 24 times fewer datapoints where days are enough).
 * The window is widened to whole periods so that every period is aligned.
 */
export async function readGpuUtilization(
  metrics: MetricReader,
  catalog: Pick<PriceCatalog, 'gpusPerInstance'>,
  leases: readonly LeaseView[],
  window: {
    readonly fromMs: number;
    readonly toMs: number;
    readonly nowMs: number;
    readonly periodMs: number;
  },
): Promise<MeasuredGpu[]> {
  const { fromMs, toMs, nowMs, periodMs } = window;
  const gpus = leases.flatMap((lease) =>
    lease.instances
      .filter((i) => i.launchedAtMs < toMs && (i.endedAtMs ?? nowMs) > fromMs)
      .flatMap((i) =>
        gpuIndexesOf(catalog, i.instanceType).map((index) => ({
          run: { instanceId: i.instanceId, fromMs: i.launchedAtMs, toMs: i.endedAtMs ?? nowMs },
          index,
          namespace: gpuMetricNamespace(lease),
        })),
      ),
  );
  if (gpus.length === 0) return [];
  const queries: MetricQuery[] = gpus.flatMap(({ run, index, namespace }) =>
    STATISTICS.map((statistic) => ({
      namespace,
      metricName: NVIDIA_SMI_METRICS.utilization,
      dimensions: gpuDimensions(run.instanceId, index),
      statistic,
      periodSeconds: periodMs / 1000,
    })),
  );
  const startMs = Math.floor(fromMs / periodMs) * periodMs;
  const endMs = Math.ceil(Math.min(toMs, nowMs) / periodMs) * periodMs;
  const results = await metrics.read(queries, startMs, Math.max(endMs, startMs + periodMs));
  return gpus.map(({ run }, i) => ({
    ...run,
    periods: periodSamples(results[2 * i] ?? [], results[2 * i + 1] ?? []),
  }));
}
