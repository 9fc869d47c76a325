import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_DATA_DIR } from '../shared/adapters/reference-data';
import { deadlinePolicy } from '../shared/domain/deadlines/policy';
import {
  allOnDemandPolicy,
  greedyPolicy,
  uniformProgressPolicy,
} from '../shared/planning/deadlines/baselines';
import { type DeadlineSetting, settingJob, spreadStarts } from '../shared/planning/deadlines/evaluate';
import {
  allOnDemandMicroUsd,
  type DeadlineJobSpec,
  type DeadlineMarket,
} from '../shared/planning/deadlines/market';
import { offlineOptimumMicroUsd } from '../shared/planning/deadlines/optimum';
import { simulateJob } from '../shared/planning/deadlines/simulate';
import { deadlineMarket, loadDeadlineData } from './deadlines-data';

export const DEADLINES_USAGE = `Usage: gpurent simulate --deadlines [--data DIR] [--json] [--work-hours H]
          [--deadline-factor F] [--restart-minutes M] [--zones Z1,Z2,...] [--starts N]

Replays deadline jobs against the V100 spot traces and prints, per policy, the
cost (against all on-demand and the offline optimum) and deadline misses.
Greedy and uniform progress run as "Can't Be Late" runs them: the deadline
kept, no ceiling on cost; gpurent's policy also keeps within all on-demand
plus one round trip of restarts and one checkpoint move.

  --data DIR           reference data laid out like ../shared/data
                       (default: ${DEFAULT_DATA_DIR})
  --json               print one JSON object instead of the table
  --work-hours H       work on one machine (default 24)
  --deadline-factor F  deadline as a multiple of the work (default 1.3)
  --restart-minutes M  what a restart costs (default 5)
  --zones LIST         allowed zones (default: every zone of the traces)
  --starts N           jobs, started evenly over the traces (default 20)
`;

export interface DeadlinesIo {
  readonly out: (text: string) => void;
  /** Where relative paths given on the command line start from. */
  readonly cwd: string;
}

export class DeadlinesUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DeadlinesUsageError';
  }
}

const POLICIES = {
  'all on-demand': allOnDemandPolicy,
  greedy: greedyPolicy,
  'uniform progress': uniformProgressPolicy,
  gpurent: deadlinePolicy,
};

function positive(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!(value > 0)) throw new DeadlinesUsageError(`--${name} must be a positive number, not "${text}"`);
  return value;
}

interface PolicyRow {
  readonly policy: string;
  readonly costUsd: number;
  readonly costVsOnDemand: number;
  readonly costVsOptimum: number;
  readonly misses: number;
}

function replay(market: DeadlineMarket, setting: DeadlineSetting, starts: number) {
  const terms = { checkpointGb: 50, homeRegion: market.zones[0]?.region ?? '' };
  const startTicks = spreadStarts(market, setting.workHours * setting.deadlineFactor * 3_600_000, starts);
  const jobs: { job: DeadlineJobSpec; optimum: number }[] = [];
  for (const startTick of startTicks) {
    const job = settingJob(setting, startTick, terms);
    const optimum = offlineOptimumMicroUsd(market, job);
    if (optimum !== null) jobs.push({ job, optimum });
  }
  const rows: PolicyRow[] = Object.entries(POLICIES).map(([policy, decide]) => {
    let cost = 0;
    let vsOd = 0;
    let vsOpt = 0;
    let misses = 0;
    for (const { job, optimum } of jobs) {
      const outcome = simulateJob(market, job, decide);
      cost += outcome.costMicroUsd;
      vsOd += outcome.costMicroUsd / allOnDemandMicroUsd(market, job);
      vsOpt += outcome.costMicroUsd / optimum;
      if (!outcome.finished) misses += 1;
    }
    const n = Math.max(1, jobs.length);
    return { policy, costUsd: cost / 1e6, costVsOnDemand: vsOd / n, costVsOptimum: vsOpt / n, misses };
  });
  const optimumUsd = jobs.reduce((sum, entry) => sum + entry.optimum, 0) / 1e6;
  return { jobs: jobs.length, infeasible: startTicks.length - jobs.length, optimumUsd, rows };
}

/** `simulate --deadlines ...`: the deadline replay; the planner's CLI hands it the arguments after the flag. */
export async function simulateDeadlines(args: readonly string[], io: DeadlinesIo): Promise<void> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        deadlines: { type: 'boolean', default: true },
        data: { type: 'string' },
        json: { type: 'boolean', default: false },
        'work-hours': { type: 'string' },
        'deadline-factor': { type: 'string' },
        'restart-minutes': { type: 'string' },
        zones: { type: 'string' },
        starts: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new DeadlinesUsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) {
    io.out(DEADLINES_USAGE);
    return;
  }
  const setting: DeadlineSetting = {
    workHours: positive('work-hours', values['work-hours'] as string | undefined, 24),
    deadlineFactor: positive('deadline-factor', values['deadline-factor'] as string | undefined, 1.3),
    restartMinutes: positive('restart-minutes', values['restart-minutes'] as string | undefined, 5),
  };
  if (setting.deadlineFactor < 1) throw new DeadlinesUsageError('--deadline-factor must be at least 1');
  const starts = Math.round(positive('starts', values.starts as string | undefined, 20));
  const dataDir = typeof values.data === 'string' ? resolve(io.cwd, values.data) : DEFAULT_DATA_DIR;
  const data = await loadDeadlineData(dataDir);
  const known = data.traces.zones.map((zone) => zone.zone);
  const zones = typeof values.zones === 'string' ? values.zones.split(',') : known;
  const unknown = zones.filter((zone) => !known.includes(zone));
  if (unknown.length > 0) {
    throw new DeadlinesUsageError(`unknown zone ${unknown.join(', ')}; the traces have ${known.join(', ')}`);
  }
  const market = deadlineMarket(data, zones);
  const { ticks, tickMs, cutFromTicks } = data.traces;
  const traces = { ticks, tickSeconds: tickMs / 1000, ...(cutFromTicks ? { cutFromTicks } : {}) };
  const result = { setting, zones, traces, ...replay(market, setting, starts) };
  if (values.json) {
    io.out(`${JSON.stringify(result, null, 2)}\n`);
    return;
  }
  const lines = [
    `${result.jobs} jobs of ${setting.workHours} h, deadline ${setting.deadlineFactor} x the work, ` +
      `restart ${setting.restartMinutes} min, on ${zones.length} zone(s)` +
      (result.infeasible > 0 ? ` (${result.infeasible} infeasible even on-demand, left out)` : ''),
    `${'policy'.padEnd(18)}${'cost $'.padStart(12)}${'x on-demand'.padStart(13)}${'x optimum'.padStart(11)}${'misses'.padStart(8)}`,
    ...result.rows.map(
      (row) =>
        `${row.policy.padEnd(18)}${row.costUsd.toFixed(2).padStart(12)}${row.costVsOnDemand.toFixed(3).padStart(13)}` +
        `${row.costVsOptimum.toFixed(3).padStart(11)}${String(row.misses).padStart(8)}`,
    ),
    `${'offline optimum'.padEnd(18)}${result.optimumUsd.toFixed(2).padStart(12)}`,
    ...(cutFromTicks
      ? [
          `(the zones' traces differ in length: all replayed over the shortest, ${ticks} of up to ${cutFromTicks} ticks)`,
        ]
      : []),
  ];
  io.out(`${lines.join('\n')}\n`);
}
