import type { Datapoint } from '../domain/scaling';

/** One CloudWatch series at one statistic and period. */
export interface MetricQuery {
  readonly namespace: string;
  readonly metricName: string;
  readonly dimensions: Readonly<Record<string, string>>;
  readonly statistic: string;
  readonly periodSeconds: number;
}

/** Reads many series at once, in as few calls as the metrics service allows. */
export interface MetricReader {
  /** The datapoints of each query in `[fromMs, toMs)`, in the order of `queries`. */
  read(queries: readonly MetricQuery[], fromMs: number, toMs: number): Promise<Datapoint[][]>;
}

/** A stable key per distinct query, so that callers ask for each series once. */
export function metricQueryKey(query: MetricQuery): string {
  const dimensions = Object.entries(query.dimensions)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, value]) => `${name}=${value}`)
    .join(',');
  return `${query.namespace}|${query.metricName}|${dimensions}|${query.statistic}|${query.periodSeconds}`;
}
