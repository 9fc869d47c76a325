import type { UsageGrouping } from '../shared/domain/usage';
import { type CliIo, client, type OutputOptions, print } from './common';
import { table } from './table';

type Usage = {
  from: string;
  to: string;
  groupBy: string;
  seconds: number;
  costUsd: number;
  groups: { key: string; seconds: number; costUsd: number }[];
};

export interface UsageOptions extends OutputOptions {
  readonly from?: string;
  readonly to?: string;
  readonly groupBy: UsageGrouping;
}

export async function usage(options: UsageOptions, io: CliIo) {
  const result = (
    await (
      await client()
    ).request<Usage>('GET', 'v1/usage', {
      query: { from: options.from, to: options.to, groupBy: options.groupBy },
    })
  ).body;
  print(
    io,
    options,
    result,
    () =>
      `${result.from} → ${result.to}, by ${result.groupBy}\n${table(
        [result.groupBy.toUpperCase(), 'INSTANCE-SECONDS', 'COST USD'],
        [
          ...result.groups.map((g) => [g.key, g.seconds, g.costUsd.toFixed(6)]),
          ['total', result.seconds, result.costUsd.toFixed(6)],
        ],
      )}`,
  );
}
