import type { Workload } from '../lease';

/**
 * Lease durations are heavy-tailed (most end within minutes, a few run for
 * weeks), so the estimate takes the median, not the mean: the value an
 * estimate's absolute error is smallest around.
 */
export const HISTORY_QUANTILE = 0.5;
/** Fewer completed leases than this under a key say too little: the next key down is asked. */
export const MIN_HISTORY_SAMPLES = 5;
/** What a lease is taken to last when no history speaks for it. */
export const DEFAULT_LEASE_DURATION_MS = 60 * 60_000;
/** How many of the latest completions per key a repository should keep for this: recent behaviour, bounded work. */
export const HISTORY_WINDOW = 500;

/** Which history an estimated duration came from. */
export type DurationBasis = 'history:tenant-workload' | 'history:workload' | 'default' | 'outlived-history';

/** Durations (ms) of completed leases, each list ascending. */
export interface DurationSamples {
  /** Keyed by `historyKey(tenantId, workload)`. */
  readonly byTenantWorkload: Readonly<Record<string, readonly number[]>>;
  readonly byWorkload: Readonly<Partial<Record<Workload, readonly number[]>>>;
}

export const historyKey = (tenantId: string, workload: Workload) => `${tenantId}#${workload}`;

export interface CompletedLease {
  readonly tenantId: string;
  readonly workload: Workload;
  readonly durationMs: number;
}

/** One tenant's and workload's recorded durations (ms), oldest first, at most HISTORY_WINDOW. */
export interface DurationWindow {
  readonly tenantId: string;
  readonly workload: Workload;
  readonly durationsMs: readonly number[];
}

/** The window with one more completion: the newest HISTORY_WINDOW kept, the oldest dropped. */
export const withDuration = (durationsMs: readonly number[], durationMs: number): number[] =>
  [...durationsMs, durationMs].slice(-HISTORY_WINDOW);

/** Every recorded window as the samples an estimate reads. */
export const samplesOfWindows = (windows: readonly DurationWindow[]): DurationSamples =>
  durationSamplesOf(
    windows.flatMap(({ tenantId, workload, durationsMs }) =>
      durationsMs.map((durationMs) => ({ tenantId, workload, durationMs })),
    ),
  );

export function durationSamplesOf(completed: readonly CompletedLease[]): DurationSamples {
  const ascendingBy = (key: (lease: CompletedLease) => string) => {
    const lists: Record<string, number[]> = {};
    for (const lease of completed) {
      const list = lists[key(lease)] ?? [];
      list.push(lease.durationMs);
      lists[key(lease)] = list;
    }
    for (const list of Object.values(lists)) list.sort((a, b) => a - b);
    return lists;
  };
  return {
    byTenantWorkload: ascendingBy((lease) => historyKey(lease.tenantId, lease.workload)),
    byWorkload: ascendingBy((lease) => lease.workload),
  };
}

/** Index of the first value greater than `bound` in an ascending list. */
function firstAbove(sorted: readonly number[], bound: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((sorted[middle] as number) > bound) high = middle;
    else low = middle + 1;
  }
  return low;
}

/**
 * The HISTORY_QUANTILE of the durations that outlasted `elapsedMs`, less the
 * elapsed time: how much longer a lease that has run that long still runs.
 * Null when fewer than MIN_HISTORY_SAMPLES outlasted it.
 */
function remainingFrom(sorted: readonly number[] | undefined, elapsedMs: number): number | null {
  if (!sorted) return null;
  const from = firstAbove(sorted, elapsedMs);
  const count = sorted.length - from;
  if (count < MIN_HISTORY_SAMPLES) return null;
  return (sorted[from + Math.floor((count - 1) * HISTORY_QUANTILE)] as number) - elapsedMs;
}

/**
 * How much longer a lease of the tenant and workload that has run `elapsedMs`
 * runs: from the tenant's own history of that workload, else the workload's
 * across tenants, else DEFAULT_LEASE_DURATION_MS. A lease that has outrun all
 * of that is taken to run as long again as it has (the median of a
 * heavy-tailed, Lindy-like duration given its age).
 */
export function remainingDuration(
  samples: DurationSamples,
  tenantId: string,
  workload: Workload,
  elapsedMs: number,
): { readonly ms: number; readonly basis: DurationBasis } {
  const own = remainingFrom(samples.byTenantWorkload[historyKey(tenantId, workload)], elapsedMs);
  if (own !== null) return { ms: own, basis: 'history:tenant-workload' };
  const shared = remainingFrom(samples.byWorkload[workload], elapsedMs);
  if (shared !== null) return { ms: shared, basis: 'history:workload' };
  if (elapsedMs < DEFAULT_LEASE_DURATION_MS)
    return { ms: DEFAULT_LEASE_DURATION_MS - elapsedMs, basis: 'default' };
  return { ms: elapsedMs, basis: 'outlived-history' };
}
