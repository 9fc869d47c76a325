import {
  type CloudWatchClient,
  GetMetricDataCommand,
  type MetricDataQuery,
  type MetricDataResult,
} from '@aws-sdk/client-cloudwatch';
import type { Datapoint } from '../domain/scaling';
import type { MetricQuery, MetricReader } from '../ports/metrics';

/** GetMetricData takes at most 500 queries a call. */
export const MAX_QUERIES_PER_CALL = 500;

export class CloudWatchMetricReader implements MetricReader {
  constructor(private readonly client: CloudWatchClient) {}

  async read(queries: readonly MetricQuery[], fromMs: number, toMs: number): Promise<Datapoint[][]> {
    const results: Datapoint[][] = queries.map(() => []);
    for (let start = 0; start < queries.length; start += MAX_QUERIES_PER_CALL) {
      const batch = queries.slice(start, start + MAX_QUERIES_PER_CALL);
      const dataQueries: MetricDataQuery[] = batch.map((query, i) => ({
        // Ids must start with a lower-case letter; the index maps results back.
        Id: `q${start + i}`,
        ReturnData: true,
        MetricStat: {
          Metric: {
            Namespace: query.namespace,
            MetricName: query.metricName,
            Dimensions: Object.entries(query.dimensions).map(([Name, Value]) => ({ Name, Value })),
          },
          Period: query.periodSeconds,
          Stat: query.statistic,
        },
      }));
      let nextToken: string | undefined;
      do {
        const page = await this.client.send(
          new GetMetricDataCommand({
            MetricDataQueries: dataQueries,
            StartTime: new Date(fromMs),
            EndTime: new Date(toMs),
            ScanBy: 'TimestampAscending',
            NextToken: nextToken,
          }),
        );
        for (const result of page.MetricDataResults ?? []) {
          results[Number(result.Id?.slice(1))]?.push(...datapointsOf(result));
        }
        nextToken = page.NextToken;
      } while (nextToken);
    }
    return results;
  }
}

function datapointsOf(result: MetricDataResult): Datapoint[] {
  const timestamps = result.Timestamps ?? [];
  const values = result.Values ?? [];
  return timestamps.flatMap((timestamp, i) => {
    const value = values[i];
    return value === undefined || !Number.isFinite(value)
      ? []
      : [{ timestampMs: timestamp.getTime(), value }];
  });
}
