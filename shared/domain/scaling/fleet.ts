import type { Datapoint, GpuStatistic } from './metrics';

const COMBINE: Record<GpuStatistic, (values: readonly number[]) => number> = {
  Average: (values) => values.reduce((sum, v) => sum + v, 0) / values.length,
  Maximum: (values) => Math.max(...values),
  Minimum: (values) => Math.min(...values),
};

/**
 * One fleet series from the series of its GPUs: per timestamp, the mean (or
 * maximum, or minimum) of the GPUs that reported then. A GPU that did not
 * report is left out rather than counted as idle, and a minute nobody reported
 * has no datapoint: missing data is never "0% busy".
 */
export function combineFleetSeries(
  perGpu: readonly (readonly Datapoint[])[],
  statistic: GpuStatistic,
): Datapoint[] {
  const byTimestamp = new Map<number, number[]>();
  for (const series of perGpu) {
    for (const { timestampMs, value } of series) {
      const values = byTimestamp.get(timestampMs) ?? [];
      values.push(value);
      byTimestamp.set(timestampMs, values);
    }
  }
  return [...byTimestamp.entries()]
    .sort(([a], [b]) => a - b)
    .map(([timestampMs, values]) => ({ timestampMs, value: COMBINE[statistic](values) }));
}

/** Memory used as a percentage of the GPU's memory, per timestamp both series report. */
export function memoryUsedPercent(used: readonly Datapoint[], total: readonly Datapoint[]): Datapoint[] {
  const totals = new Map(total.map((d) => [d.timestampMs, d.value]));
  return used.flatMap(({ timestampMs, value }) => {
    const of = totals.get(timestampMs);
    return of === undefined || of <= 0 ? [] : [{ timestampMs, value: (value / of) * 100 }];
  });
}
