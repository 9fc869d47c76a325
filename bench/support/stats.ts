import { performance } from 'node:perf_hooks';

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError('median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** The value below which `share` of the values lie (nearest rank, no interpolation). */
export function percentile(values: readonly number[], share: number): number {
  if (values.length === 0) throw new RangeError('percentile of no values');
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) * share)] as number;
}

/** Rounds a figure for the results file: enough digits to compare, no float noise. */
export function round(value: number, digits = 2): number {
  return Number(value.toFixed(digits));
}

/** Holds the last result of timed work, so the JIT cannot drop work whose result is unused. */
let _sink: unknown;

/**
 * Median wall time of `rounds` runs of `work`, after one warm-up run so the JIT
 * has compiled the hot path; the median shrugs off the odd slow run on a shared machine.
 */
export function medianMs(work: () => unknown, rounds: number): number {
  _sink = work();
  const durations: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    _sink = work();
    durations.push(performance.now() - start);
  }
  return median(durations);
}

/** Median wall time of `rounds` sequential runs of async `work` (the caller warms up first). */
export async function medianMsAsync(work: () => Promise<unknown>, rounds: number): Promise<number> {
  const durations: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    _sink = await work();
    durations.push(performance.now() - start);
  }
  return median(durations);
}
