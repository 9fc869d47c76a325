import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { priceCatalog } from '../shared/catalog';
import { formatUsdForPeople } from '../shared/domain/money';
import { SPOT_TRACE_INSTANCE_TYPE } from '../shared/planning/spot-market';
import { type FractionalReplay, replayOnFractions } from '../shared/planning/waste/fractional-replay';
import { readTrace } from './trace/read-trace';
import { readSharingTasks } from './trace/sharing-tasks';

export const FRACTIONAL_USAGE = `Usage: gpurent simulate --fractional --trace FILE [--json] [--region R] [--whole-type T]

Replays the GPU-sharing tasks of an Alibaba pod list (gpu_milli below 1000,
counted as whole GPUs by the default replay) on fractional instances (g6f,
gr6f) where the share, rounded up to an eighth, a quarter or a half, fits,
and compares their on-demand bill with one whole GPU each.

  --trace FILE      the Alibaba GPU pod list
  --json            print one JSON object instead of the table
  --region R        where the types are priced (default us-east-1)
  --whole-type T    the whole-GPU type of the comparison
                    (default ${SPOT_TRACE_INSTANCE_TYPE}, the default replay's)
`;

export interface FractionalIo {
  readonly out: (text: string) => void;
  readonly cwd: string;
}

export class FractionalUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FractionalUsageError';
  }
}

/** The replay's figures as the CLI prints them (dollars, the saving as a share of the whole-GPU bill). */
export function fractionalReport(replay: FractionalReplay, region: string, wholeType: string) {
  const saving = replay.wholeMicroUsd - replay.fractionalMicroUsd;
  return {
    region,
    wholeType,
    sharingTasks: replay.sharingTasks,
    onFractions: replay.onFractions,
    byFraction: replay.byFraction,
    wholeUsd: replay.wholeMicroUsd / 1e6,
    fractionalUsd: replay.fractionalMicroUsd / 1e6,
    savingUsd: saving / 1e6,
    savingShare: replay.wholeMicroUsd === 0 ? 0 : Math.round((saving / replay.wholeMicroUsd) * 1e4) / 1e4,
  };
}

export async function simulateFractional(args: string[], io: FractionalIo): Promise<void> {
  let values: {
    trace?: string;
    json?: boolean;
    region?: string;
    'whole-type'?: string;
    fractional?: boolean;
  };
  try {
    ({ values } = parseArgs({
      args,
      options: {
        fractional: { type: 'boolean' },
        trace: { type: 'string' },
        json: { type: 'boolean', default: false },
        region: { type: 'string', default: 'us-east-1' },
        'whole-type': { type: 'string', default: SPOT_TRACE_INSTANCE_TYPE },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new FractionalUsageError(error instanceof Error ? error.message : String(error));
  }
  if (!values.trace) throw new FractionalUsageError('--trace FILE is required');
  const region = values.region ?? 'us-east-1';
  const wholeType = values['whole-type'] ?? SPOT_TRACE_INSTANCE_TYPE;
  if (!priceCatalog.isPricedIn(wholeType, region)) {
    throw new FractionalUsageError(`--whole-type ${wholeType} has no on-demand price in ${region}`);
  }
  const path = resolve(io.cwd, values.trace);
  const tasks = await readSharingTasks(path, await readTrace(path));
  const report = fractionalReport(
    replayOnFractions(tasks, priceCatalog, region, wholeType),
    region,
    wholeType,
  );
  io.out(values.json ? `${JSON.stringify(report, null, 2)}\n` : formatFractional(report));
}

function formatFractional(report: ReturnType<typeof fractionalReport>): string {
  const fractions = Object.entries(report.byFraction)
    .map(([fraction, tasks]) => `${tasks} on ${fraction}`)
    .join(', ');
  const usd = (dollars: number) => formatUsdForPeople(Math.round(dollars * 1e6));
  return [
    `GPU-sharing tasks: ${report.sharingTasks}, on fractions: ${report.onFractions} (${fractions || 'none'})`,
    `one whole ${report.wholeType} each: ${usd(report.wholeUsd)}`,
    `on fractions where they fit:  ${usd(report.fractionalUsd)}`,
    `saving: ${usd(report.savingUsd)} (${(report.savingShare * 100).toFixed(1)} % of the whole-GPU replay), on-demand in ${report.region}`,
    '',
  ].join('\n');
}
