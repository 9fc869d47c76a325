/**
 * Metering replay: a fleet of instance runs drawn from the Alibaba GPU trace is
 * metered tick by tick through the domain's `chargeUpTo`, with the faults a
 * scheduled Lambda really sees (jitter, retried, skipped and reordered ticks,
 * duplicate close events), and compared with a naive float accumulator on the
 * same ticks: speed, and exactness against the closed-form cost of each run.
 */
import {
  type BillingCheckpoint,
  chargeUpTo,
  costOfRun,
  EMPTY_CHECKPOINT,
  type InstanceRun,
} from '../shared/domain/billing';
import { formatUsd, usdToMicro } from '../shared/domain/money';
import { ALIBABA_TRACE, type GpuTask, readGpuTasks } from './support/alibaba-trace';
import type { BenchmarkResult } from './support/benchmark';
import { seededRandom } from './support/random';
import { medianMs, round } from './support/stats';

const RUNS = 1000;
const SEED = 2023;
const ROUNDS = 25;
const TICK_MS = 60_000;
/** p3.2xlarge on-demand, one V100; p3.8xlarge and p3.16xlarge cost exactly 4× and 8× for 4 and 8 GPUs. */
const USD_PER_GPU_HOUR = 3.06;
const MAX_JITTER_MS = 3_000;
const RETRIED_TICK_SHARE = 0.02;
const SKIPPED_TICK_SHARE = 0.01;
const REORDERED_TICK_SHARE = 0.01;
const DUPLICATE_CLOSE_SHARE = 0.05;

const ASSUMPTIONS = [
  `${RUNS} runs drawn with replacement (seed ${SEED}) from the ${ALIBABA_TRACE} tasks that ran on ≥ 1 whole GPU; launch at the task's scheduled_time plus a random sub-second offset, duration from the trace plus a random sub-second fraction`,
  `priced at $${USD_PER_GPU_HOUR}/GPU-hour (p3.2xlarge on-demand) × the task's GPU count`,
  `the metering schedule ticks on every wall-clock minute with 0–${MAX_JITTER_MS / 1000} s invocation delay; ${RETRIED_TICK_SHARE * 100}% of ticks are delivered twice, ${SKIPPED_TICK_SHARE * 100}% are lost, ${REORDERED_TICK_SHARE * 100}% arrive after the next tick`,
  `each run closes with an exact end time (ended = true); ${DUPLICATE_CLOSE_SHARE * 100}% of closes are delivered twice`,
  'the naive baseline adds price_per_second × seconds since its last tick in float USD and knows neither the one-minute minimum nor the round-up of the last second',
];

interface Fleet {
  readonly runs: readonly InstanceRun[];
  readonly endsAtMs: readonly number[];
}

/** Ticks in delivery order, as parallel arrays: a million objects would measure the garbage collector. */
interface Ticks {
  readonly run: Int32Array;
  readonly atMs: Float64Array;
  readonly ended: Uint8Array;
}

function sampleFleet(random: () => number, tasks: readonly GpuTask[]): Fleet {
  const runs: InstanceRun[] = [];
  const endsAtMs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const task = tasks[Math.floor(random() * tasks.length)] as GpuTask;
    const launchedAtMs = task.scheduledAtSeconds * 1000 + Math.floor(random() * 1000);
    runs.push({ launchedAtMs, priceMicroUsdPerHour: usdToMicro(USD_PER_GPU_HOUR * task.gpus) });
    endsAtMs.push(launchedAtMs + task.durationSeconds * 1000 + Math.floor(random() * 1000));
  }
  return { runs, endsAtMs };
}

function scheduleTicks(fleet: Fleet, random: () => number): Ticks {
  const run: number[] = [];
  const atMs: number[] = [];
  const ended: number[] = [];
  const deliver = (index: number, at: number, isClose: boolean) => {
    run.push(index);
    atMs.push(at);
    ended.push(isClose ? 1 : 0);
  };
  fleet.runs.forEach((instance, index) => {
    const endMs = fleet.endsAtMs[index] as number;
    let reordered: number | null = null;
    for (
      let minute = Math.ceil(instance.launchedAtMs / TICK_MS) * TICK_MS;
      minute < endMs;
      minute += TICK_MS
    ) {
      const at = Math.min(endMs - 1, minute + Math.floor(random() * MAX_JITTER_MS));
      const fault = random();
      if (fault < SKIPPED_TICK_SHARE) continue;
      if (fault < SKIPPED_TICK_SHARE + REORDERED_TICK_SHARE && reordered === null) {
        reordered = at;
        continue;
      }
      deliver(index, at, false);
      if (reordered !== null) {
        deliver(index, reordered, false);
        reordered = null;
      }
      if (fault > 1 - RETRIED_TICK_SHARE) deliver(index, at, false);
    }
    deliver(index, endMs, true);
    if (reordered !== null) deliver(index, reordered, false);
    if (random() < DUPLICATE_CLOSE_SHARE) deliver(index, endMs, true);
  });
  return { run: Int32Array.from(run), atMs: Float64Array.from(atMs), ended: Uint8Array.from(ended) };
}

/** The domain path: checkpoint per run, integer micro-dollars. Returns µ$ per run. */
function meterWithDomain(fleet: Fleet, ticks: Ticks): number[] {
  const checkpoints: BillingCheckpoint[] = fleet.runs.map(() => EMPTY_CHECKPOINT);
  const charged = new Array<number>(fleet.runs.length).fill(0);
  for (let i = 0; i < ticks.run.length; i++) {
    const index = ticks.run[i] as number;
    const charge = chargeUpTo(
      fleet.runs[index] as InstanceRun,
      checkpoints[index] as BillingCheckpoint,
      ticks.atMs[i] as number,
      ticks.ended[i] === 1,
    );
    checkpoints[index] = charge.checkpoint;
    charged[index] = (charged[index] as number) + charge.microUsd;
  }
  return charged;
}

/** The naive baseline: float USD per second, added on each tick. Returns USD per run. */
function meterNaively(fleet: Fleet, ticks: Ticks): number[] {
  const usdPerSecond = fleet.runs.map((r) => r.priceMicroUsdPerHour / 1_000_000 / 3600);
  const lastMs = fleet.runs.map((r) => r.launchedAtMs);
  const charged = new Array<number>(fleet.runs.length).fill(0);
  for (let i = 0; i < ticks.run.length; i++) {
    const index = ticks.run[i] as number;
    const at = ticks.atMs[i] as number;
    const since = lastMs[index] as number;
    if (at <= since) continue;
    charged[index] = (charged[index] as number) + (usdPerSecond[index] as number) * ((at - since) / 1000);
    lastMs[index] = at;
  }
  return charged;
}

const sum = (values: readonly number[]) => values.reduce((total, v) => total + v, 0);

export async function run(): Promise<BenchmarkResult> {
  const random = seededRandom(SEED);
  const fleet = sampleFleet(random, await readGpuTasks());
  const ticks = scheduleTicks(fleet, random);
  const tickCount = ticks.run.length;

  const exactPerRun = fleet.runs.map((r, i) => costOfRun(r, fleet.endsAtMs[i] as number));
  const exactMicroUsd = sum(exactPerRun);
  const domainPerRun = meterWithDomain(fleet, ticks);
  const domainMicroUsd = sum(domainPerRun);
  if (domainMicroUsd !== exactMicroUsd || domainPerRun.some((v, i) => v !== exactPerRun[i])) {
    throw new Error(
      `Domain metering drifted from the closed form: ${domainMicroUsd} µ$ metered vs ${exactMicroUsd} µ$ costOfRun`,
    );
  }
  const naivePerRun = meterNaively(fleet, ticks);
  const naiveMicroUsd = sum(naivePerRun) * 1_000_000;
  // What the naive sums would be with exact arithmetic: price × real duration, no billing rules.
  const unruledMicroUsd = sum(
    fleet.runs.map(
      (r, i) => ((r.priceMicroUsdPerHour / 3600) * ((fleet.endsAtMs[i] as number) - r.launchedAtMs)) / 1000,
    ),
  );
  const naiveRunsOff = naivePerRun.filter((usd, i) => Math.round(usd * 1_000_000) !== exactPerRun[i]).length;

  const domainMs = medianMs(() => meterWithDomain(fleet, ticks), ROUNDS);
  const naiveMs = medianMs(() => meterNaively(fleet, ticks), ROUNDS);
  const domainTicksPerSecond = tickCount / (domainMs / 1000);
  const naiveTicksPerSecond = tickCount / (naiveMs / 1000);

  const figures = {
    runs: RUNS,
    ticks: tickCount,
    rounds: ROUNDS,
    domain: { ticksPerSecond: Math.round(domainTicksPerSecond), medianMs: round(domainMs) },
    naiveFloat: { ticksPerSecond: Math.round(naiveTicksPerSecond), medianMs: round(naiveMs) },
    speedRatioDomainVsNaive: round(domainTicksPerSecond / naiveTicksPerSecond, 3),
    exactness: {
      closedFormMicroUsd: exactMicroUsd,
      closedFormUsd: formatUsd(exactMicroUsd),
      domainMicroUsd,
      domainEqualsClosedForm: true,
      naiveFloatMicroUsd: round(naiveMicroUsd, 3),
      naiveDriftMicroUsd: round(naiveMicroUsd - exactMicroUsd, 3),
      naiveDriftFromBillingRulesMicroUsd: round(unruledMicroUsd - exactMicroUsd, 3),
      naiveDriftFromFloatArithmeticMicroUsd: round(naiveMicroUsd - unruledMicroUsd, 6),
      naiveRunsNotExactToTheMicroUsd: naiveRunsOff,
    },
    assumptions: ASSUMPTIONS,
  };
  const summary = [
    `${RUNS} runs, ${tickCount.toLocaleString('en-US')} ticks (median of ${ROUNDS} replays)`,
    `domain chargeUpTo: ${Math.round(domainTicksPerSecond).toLocaleString('en-US')} ticks/s; naive float: ${Math.round(naiveTicksPerSecond).toLocaleString('en-US')} ticks/s; ratio ${figures.speedRatioDomainVsNaive}`,
    `domain total ${exactMicroUsd} µ$ equals the closed form costOfRun exactly`,
    `naive float total is off by ${figures.exactness.naiveDriftMicroUsd} µ$ (${figures.exactness.naiveDriftFromBillingRulesMicroUsd} from ignoring the minimum and round-up, ${figures.exactness.naiveDriftFromFloatArithmeticMicroUsd} from float arithmetic); ${naiveRunsOff} of ${RUNS} runs not exact to the µ$`,
  ].join('\n');
  return { key: 'metering', figures, summary };
}
