import type { PriceCatalog } from '../domain/catalog';
import { GPU_SILENCE_LIMIT_MS, judgeGpuHealth } from '../domain/gpu-health';
import {
  GPU_METRIC_PERIOD_SECONDS,
  gpuDimensions,
  gpuMetricNamespace,
  NVIDIA_SMI_METRICS,
} from '../domain/gpu-telemetry';
import type { LeaseInstance } from '../domain/lease';
import type { Datapoint } from '../domain/scaling';
import { gpuIndexesOf } from '../domain/waste/gpu-indexes';
import type { DomainEventPublisher } from '../ports/domain-events';
import type { MetricQuery } from '../ports/metrics';
import type { GpuHealthMarks } from '../ports/scaling-groups';

/** The window the sweep needs, in one-minute periods: the silence limit and a period of delay. */
export const HEALTH_WINDOW_PERIODS = GPU_SILENCE_LIMIT_MS / (GPU_METRIC_PERIOD_SECONDS * 1000) + 1;

export interface WatchedGpu {
  readonly instance: LeaseInstance;
  readonly gpuIndex: number;
  /** The hottest reading of each minute; an empty series is a silent GPU. */
  readonly query: MetricQuery;
}

/** One temperature query per GPU (every index of a multi-GPU type) of every running instance. */
export function watchedGpus(
  catalog: Pick<PriceCatalog, 'gpusPerInstance'>,
  instances: readonly LeaseInstance[],
): WatchedGpu[] {
  return instances.flatMap((instance) =>
    gpuIndexesOf(catalog, instance.instanceType).map((gpuIndex) => ({
      instance,
      gpuIndex,
      query: {
        namespace: gpuMetricNamespace(instance),
        metricName: NVIDIA_SMI_METRICS.temperature,
        dimensions: gpuDimensions(instance.instanceId, gpuIndex),
        statistic: 'Maximum',
        periodSeconds: GPU_METRIC_PERIOD_SECONDS,
      },
    })),
  );
}

const markId = (instanceId: string, gpuIndex: number) => `${instanceId}#${gpuIndex}`;

/**
 * Reports each GPU that turned hot or silent once, as a `GpuUnhealthy` event
 * to its tenant; a GPU that recovers (or ends) loses its mark, so a relapse is
 * reported again. Returns how many GPUs were reported.
 */
export async function reportGpuHealth(
  deps: { readonly events: DomainEventPublisher; readonly marks: GpuHealthMarks },
  gpus: readonly (WatchedGpu & { readonly temperature: readonly Datapoint[] })[],
  nowMs: number,
  temperatureLimitC: number,
): Promise<number> {
  const marked = new Set((await deps.marks.marked()).map((m) => markId(m.instanceId, m.gpuIndex)));
  const watched = new Set<string>();
  let reported = 0;
  for (const { instance, gpuIndex, temperature } of gpus) {
    const id = markId(instance.instanceId, gpuIndex);
    watched.add(id);
    const health = judgeGpuHealth({
      temperature,
      newestDatapointMs:
        temperature.length === 0 ? undefined : Math.max(...temperature.map((d) => d.timestampMs)),
      launchedAtMs: instance.launchedAtMs,
      nowMs,
      temperatureLimitC,
    });
    if (health.status === 'ok') {
      if (marked.has(id)) await deps.marks.clear(instance.instanceId, gpuIndex);
      continue;
    }
    const mark = { instanceId: instance.instanceId, gpuIndex, status: health.status, sinceMs: nowMs };
    if (!(await deps.marks.mark(mark))) continue;
    await deps.events.publish([
      {
        type: 'GpuUnhealthy',
        tenantId: instance.tenantId,
        detail: {
          leaseId: instance.leaseId,
          instanceId: instance.instanceId,
          gpuIndex,
          status: health.status,
          reason: health.reason,
        },
      },
    ]);
    reported += 1;
  }
  for (const mark of await deps.marks.marked()) {
    if (!watched.has(markId(mark.instanceId, mark.gpuIndex)))
      await deps.marks.clear(mark.instanceId, mark.gpuIndex);
  }
  return reported;
}
