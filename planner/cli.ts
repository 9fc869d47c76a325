import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { DEFAULT_DATA_DIR } from '../shared/adapters/reference-data';
import { SpotDataError } from '../shared/adapters/spot-trace-files';
import { DEFAULT_RESERVATION_LOOKBACK_MS } from '../shared/domain/reservations';
import { UnplaceableLeaseError } from '../shared/planning/simulate';
import { MS_PER_DAY } from '../shared/planning/units';
import { DEADLINES_USAGE, DeadlinesUsageError, simulateDeadlines } from './deadlines-cli';
import { formatReport } from './format-report';
import { FRACTIONAL_USAGE, FractionalUsageError, simulateFractional } from './fractional-cli';
import { replayTrace } from './replay-trace';
import { TraceFormatError } from './trace/trace-format-error';

const USAGE = `Usage: gpurent simulate --trace FILE [--data DIR] [--json] [--lookback-days N]

Replays a demand trace through the control plane's own rental policies (mode,
placement, reservations, spot reclaims, metering) in simulated time, and
compares the bill with all on-demand and with the cheapest mix in hindsight.
With --fractional, replays the trace's GPU-sharing tasks on fractional GPUs
(see simulate --fractional --help); with --deadlines, deadline jobs.

  --trace FILE  the Alibaba GPU pod list or a GET /v1/usage/export CSV
                (the format is told from the header)
  --data DIR    reference data with the spot traces
                (default: ${DEFAULT_DATA_DIR})
  --json        print one JSON object instead of the table
  --lookback-days N
                past demand each reservation decision reads
                (default: the policy's own, ${DEFAULT_RESERVATION_LOOKBACK_MS / MS_PER_DAY} days)
`;

export interface CliIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  /** Where relative paths given on the command line start from. */
  readonly cwd: string;
}

const processIo: CliIo = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  // npm runs scripts from the package root; INIT_CWD is where the user typed the command.
  cwd: process.env.INIT_CWD ?? process.cwd(),
};

class UsageError extends Error {}

/** Runs `gpurent <command> ...` and returns the exit code: 0 done, 1 bad input, 2 bad usage. */
export async function main(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  try {
    const [command, ...rest] = argv;
    if (command !== 'simulate') throw new UsageError(command ? `unknown command "${command}"` : 'no command');
    if (rest.includes('--deadlines')) await simulateDeadlines(rest, io);
    else if (rest.includes('--fractional')) await simulateFractional(rest, io);
    else await simulate(rest, io);
    return 0;
  } catch (error) {
    if (error instanceof DeadlinesUsageError) {
      io.err(`${error.message}\n\n${DEADLINES_USAGE}`);
      return 2;
    }
    if (error instanceof FractionalUsageError) {
      io.err(`${error.message}\n\n${FRACTIONAL_USAGE}`);
      return 2;
    }
    if (error instanceof UsageError) {
      io.err(`${error.message}\n\n${USAGE}`);
      return 2;
    }
    if (isInputError(error)) {
      io.err(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

async function simulate(args: string[], io: CliIo): Promise<void> {
  let values: { trace?: string; data?: string; json?: boolean; help?: boolean; 'lookback-days'?: string };
  try {
    ({ values } = parseArgs({
      args,
      options: {
        trace: { type: 'string' },
        data: { type: 'string' },
        json: { type: 'boolean', default: false },
        'lookback-days': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) {
    io.out(USAGE);
    return;
  }
  if (!values.trace) throw new UsageError('--trace FILE is required');
  const replay = await replayTrace({
    tracePath: resolve(io.cwd, values.trace),
    dataDir: values.data ? resolve(io.cwd, values.data) : DEFAULT_DATA_DIR,
    reservationLookbackMs: lookbackMs(values['lookback-days']),
  });
  io.out(values.json ? `${JSON.stringify(replay.report, null, 2)}\n` : formatReport(replay));
}

function lookbackMs(days: string | undefined): number | undefined {
  if (days === undefined) return undefined;
  const value = Number(days);
  if (!(value > 0)) throw new UsageError(`--lookback-days must be a positive number of days, not "${days}"`);
  return value * MS_PER_DAY;
}

/** Errors that mean "fix your input", shown as one line rather than a stack trace. */
function isInputError(error: unknown): error is Error {
  if (error instanceof TraceFormatError || error instanceof SpotDataError) return true;
  if (error instanceof UnplaceableLeaseError) return true;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return error instanceof Error && (code === 'ENOENT' || code === 'EISDIR' || code === 'EACCES');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2));
}
