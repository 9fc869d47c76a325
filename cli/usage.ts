import { formatUsdForPeople } from '../shared/domain/money';
import type { UsageGrouping } from '../shared/domain/usage';
import { type CliIo, client, type OutputOptions, print, usdForPeople, writeOutput } from './common';
import { table } from './table';

type Usage = {
  from: string;
  to: string;
  groupBy: string;
  seconds: number;
  costUsd: number;
  idleMicroUsd: number;
  groups: { key: string; seconds: number; costUsd: number; idleMicroUsd?: number }[];
};

/** Idle cost for people; `-` for a group the waste ledger does not keep (by mode or instance type). */
const idleCell = (idleMicroUsd: number | undefined) =>
  idleMicroUsd === undefined ? '-' : formatUsdForPeople(idleMicroUsd);

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
        [result.groupBy.toUpperCase(), 'INSTANCE-SECONDS', 'COST USD', 'IDLE USD'],
        [
          ...result.groups.map((g) => [g.key, g.seconds, usdForPeople(g.costUsd), idleCell(g.idleMicroUsd)]),
          ['total', result.seconds, usdForPeople(result.costUsd), idleCell(result.idleMicroUsd)],
        ],
      )}`,
  );
}

export interface UsageExportOptions {
  readonly from?: string;
  readonly to?: string;
  readonly out?: string;
}

/** GET /v1/usage/export's CSV (the input of `gpurent simulate --trace`) to stdout or a file. */
export async function usageExport(options: UsageExportOptions, io: CliIo) {
  const csv = (
    await (
      await client()
    ).request<string>('GET', 'v1/usage/export', { query: { from: options.from, to: options.to } })
  ).body;
  if (!options.out) return io.out(csv);
  const file = await writeOutput(io, options.out, csv);
  io.progress(`Wrote ${csv.split('\n').filter(Boolean).length - 1} lease(s) to ${file}\n`);
}
