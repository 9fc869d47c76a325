import type { LeaseView, RentalMode, Workload } from './lease';
import { utcDays } from './utc-days';

const HOUR_MS = 3_600_000;

export interface GpuUse {
  readonly gpuHours: number;
  readonly avgConcurrentGpus: number;
  readonly peakConcurrentGpus: number;
}

/** One UTC day of a tenant's demand. */
export interface DayProfile extends GpuUse {
  readonly day: string;
  /** Request to first instance running, of the leases requested that day (seconds). */
  readonly waitSeconds: { readonly leases: number; readonly p50: number | null; readonly p95: number | null };
  readonly byWorkload: Readonly<Partial<Record<Workload, GpuUse>>>;
  readonly byMode: Readonly<Partial<Record<RentalMode, GpuUse>>>;
}

interface Interval {
  readonly fromMs: number;
  readonly toMs: number;
  readonly gpus: number;
  readonly workload: Workload;
  readonly mode: RentalMode;
}

/** Nearest-rank percentile; null for no values. */
export function percentileOf(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? null;
}

/** GPU-hours, average and peak concurrency of intervals within [fromMs, toMs). */
export function gpuUse(
  intervals: readonly Pick<Interval, 'fromMs' | 'toMs' | 'gpus'>[],
  fromMs: number,
  toMs: number,
): GpuUse {
  const edges: { atMs: number; delta: number }[] = [];
  let gpuMs = 0;
  for (const interval of intervals) {
    const start = Math.max(interval.fromMs, fromMs);
    const end = Math.min(interval.toMs, toMs);
    if (end <= start) continue;
    gpuMs += (end - start) * interval.gpus;
    edges.push({ atMs: start, delta: interval.gpus }, { atMs: end, delta: -interval.gpus });
  }
  // Ends before starts at the same instant: a replacement that starts as another ends is not a peak.
  edges.sort((a, b) => a.atMs - b.atMs || a.delta - b.delta);
  let current = 0;
  let peak = 0;
  for (const edge of edges) {
    current += edge.delta;
    peak = Math.max(peak, current);
  }
  return {
    gpuHours: round(gpuMs / HOUR_MS),
    avgConcurrentGpus: round(gpuMs / (toMs - fromMs)),
    peakConcurrentGpus: peak,
  };
}

const round = (value: number) => Math.round(value * 1000) / 1000;

function groupedUse<Key extends string>(
  intervals: readonly Interval[],
  keyOf: (interval: Interval) => Key,
  fromMs: number,
  toMs: number,
): Partial<Record<Key, GpuUse>> {
  const groups = new Map<Key, Interval[]>();
  for (const interval of intervals) {
    const members = groups.get(keyOf(interval));
    if (members) members.push(interval);
    else groups.set(keyOf(interval), [interval]);
  }
  const used: Partial<Record<Key, GpuUse>> = {};
  for (const [key, members] of groups) {
    const use = gpuUse(members, fromMs, toMs);
    if (use.peakConcurrentGpus > 0) used[key] = use;
  }
  return used;
}

/**
 * A tenant's demand per UTC day of [fromMs, toMs): GPU-hours, average and peak
 * concurrent GPUs (overall, by workload, by rental mode) from its instances'
 * lifetimes, and the wait from request to the first running instance of the
 * leases requested that day. `nowMs` ends instances still running; the last day
 * is averaged over the part of it that has passed.
 */
export function demandProfile(
  leases: readonly LeaseView[],
  fromMs: number,
  toMs: number,
  nowMs: number,
  gpusOf: (instanceType: string) => number,
): DayProfile[] {
  const intervals: Interval[] = leases.flatMap((lease) =>
    lease.instances.map((instance) => ({
      fromMs: instance.launchedAtMs,
      toMs: instance.endedAtMs ?? nowMs,
      gpus: gpusOf(instance.instanceType),
      workload: lease.workload,
      mode: instance.mode,
    })),
  );
  return utcDays(fromMs, Math.min(toMs, nowMs)).map(({ day, fromMs: from, toMs: to }) => {
    const waits = leases
      .filter((lease) => lease.createdAtMs >= from && lease.createdAtMs < to && lease.instances.length > 0)
      .map(
        (lease) =>
          Math.max(0, Math.min(...lease.instances.map((i) => i.launchedAtMs)) - lease.createdAtMs) / 1000,
      );
    return {
      day,
      ...gpuUse(intervals, from, to),
      waitSeconds: { leases: waits.length, p50: percentileOf(waits, 0.5), p95: percentileOf(waits, 0.95) },
      byWorkload: groupedUse(intervals, (i) => i.workload, from, to),
      byMode: groupedUse(intervals, (i) => i.mode, from, to),
    };
  });
}
