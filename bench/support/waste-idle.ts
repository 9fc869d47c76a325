/**
 * Idle reclaim: each trace task with GPUs replayed minute by minute under an
 * idle policy, as the evaluator would judge it after every metering run, and
 * without one. Every GPU is one p3.2xlarge on-demand (the planner's replay
 * type), so a task of n GPUs is n single-GPU instances judged as one lease.
 */
import { billableSeconds, costOfRun } from '../../shared/domain/billing';
import type { Workload } from '../../shared/domain/lease';
import { EMPTY_IDLE_CHECKPOINT, idleChargeUpTo } from '../../shared/domain/waste/idle-ledger';
import { type IdlePolicy, idleOutcome } from '../../shared/domain/waste/idle-policy';
import { type GpuSeries, judgeIdleWindow } from '../../shared/domain/waste/idle-window';
import { MISSING, type TaskUtilization, utilizationOf } from './waste-utilization';

const MINUTE_MS = 60_000;

export interface IdleTask {
  readonly id: string;
  readonly workload: Workload;
  readonly gpus: number;
  readonly startMs: number;
  readonly endMs: number;
}

export interface IdleReplayTotals {
  gpuSeconds: number;
  microUsd: number;
  idleGpuSeconds: number;
  idleMicroUsd: number;
}

export interface IdleReplayResult {
  readonly noPolicy: IdleReplayTotals;
  readonly policy: IdleReplayTotals;
  readonly leases: number;
  readonly released: number;
  /** Released although some GPU's true utilization reached the line in the window judged. */
  readonly releasedNotIdle: number;
  /** Released in a pause after which the model's work resumed. */
  readonly releasedWithWorkLeft: number;
  /** Leases reported silent at least once (every sample below the line, some missing): health, not idleness. */
  readonly silentLeases: number;
  /** Evaluations where the fast pre-check and judgeIdleWindow disagreed (must be 0). */
  readonly judgeDisagreements: number;
}

const emptyTotals = (): IdleReplayTotals => ({
  gpuSeconds: 0,
  microUsd: 0,
  idleGpuSeconds: 0,
  idleMicroUsd: 0,
});

function windowSeries(u: TaskUtilization, lastMinute: number, forMinutes: number): GpuSeries[] {
  return u.samples.map((sent, gpuIndex) => {
    const samples: { minuteMs: number; percent: number }[] = [];
    for (let i = lastMinute - forMinutes + 1; i <= lastMinute; i++) {
      const value = sent[i] ?? MISSING;
      if (value !== MISSING) samples.push({ minuteMs: u.firstMinuteMs + i * MINUTE_MS, percent: value });
    }
    return { gpu: { instanceId: 'i', gpuIndex }, samples };
  });
}

/**
 * The first evaluation at which the policy releases the task, or null. The
 * evaluator runs after each minute's metering and judges the last
 * `forMinutes` whole minutes; a per-GPU run length of minutes below the line
 * picks the evaluations worth a full judgement, and judgeIdleWindow (the
 * production code) decides.
 */
function releaseMinute(
  task: IdleTask,
  u: TaskUtilization,
  policy: IdlePolicy,
  counts: { silent: boolean; disagreements: number },
): number | null {
  const below = new Array<number>(task.gpus).fill(0);
  const quiet = new Array<number>(task.gpus).fill(0);
  const gpus = u.samples.map((_, gpuIndex) => ({ instanceId: 'i', gpuIndex }));
  for (let i = 0; i < u.minutes - 1; i++) {
    for (let g = 0; g < task.gpus; g++) {
      const value = u.samples[g]?.[i] ?? MISSING;
      below[g] = value !== MISSING && value < policy.belowPercent ? (below[g] ?? 0) + 1 : 0;
      quiet[g] = value === MISSING || value < policy.belowPercent ? (quiet[g] ?? 0) + 1 : 0;
    }
    const atMs = u.firstMinuteMs + (i + 1) * MINUTE_MS;
    if (atMs - policy.forMinutes * MINUTE_MS < task.startMs) continue;
    const idle = Math.min(...below) >= policy.forMinutes;
    const silent = !idle && Math.min(...quiet) >= policy.forMinutes;
    if (!idle && !(silent && !counts.silent)) continue;
    const verdict = judgeIdleWindow({
      gpus,
      series: windowSeries(u, i, policy.forMinutes),
      runningSinceMs: task.startMs,
      atMs,
      belowPercent: policy.belowPercent,
      forMinutes: policy.forMinutes,
    });
    if (verdict.kind !== (idle ? 'idle' : 'silent')) counts.disagreements += 1;
    if (verdict.kind === 'silent') counts.silent = true;
    if (
      verdict.kind === 'idle' &&
      idleOutcome(policy, { workload: task.workload, modes: ['on-demand'] }) === 'release'
    ) {
      return i;
    }
  }
  return null;
}

/** Billed GPU time, cost and the ledger's idle part of one GPU billed from the task's start to `endMs`. */
function addGpu(
  totals: IdleReplayTotals,
  task: IdleTask,
  u: TaskUtilization,
  gpu: number,
  endMs: number,
  priceMicroUsdPerHour: number,
  belowPercent: number,
) {
  const run = { launchedAtMs: task.startMs, priceMicroUsdPerHour };
  const idleGpus = new Map<number, number>();
  const sent = u.samples[gpu] as Uint8Array;
  for (let i = 0; i < u.minutes; i++) {
    const value = sent[i] as number;
    if (value !== MISSING && value < belowPercent) idleGpus.set(u.firstMinuteMs + i * MINUTE_MS, 1);
  }
  const seconds = billableSeconds(run, endMs, true);
  const charge = idleChargeUpTo({
    run,
    gpusPerInstance: 1,
    checkpoint: EMPTY_IDLE_CHECKPOINT,
    billedSeconds: seconds,
    idleGpus,
  });
  totals.gpuSeconds += seconds;
  totals.microUsd += costOfRun(run, endMs);
  totals.idleGpuSeconds += charge.days.reduce((sum, day) => sum + day.idleGpuSeconds, 0);
  totals.idleMicroUsd += charge.checkpoint.idleMicroUsd;
}

export function replayIdle(
  tasks: readonly IdleTask[],
  policy: IdlePolicy,
  priceMicroUsdPerHour: number,
  seed: number,
): IdleReplayResult {
  const noPolicy = emptyTotals();
  const withPolicy = emptyTotals();
  let released = 0;
  let releasedNotIdle = 0;
  let releasedWithWorkLeft = 0;
  let silentLeases = 0;
  let judgeDisagreements = 0;
  for (const task of tasks) {
    const u = utilizationOf(task, seed);
    const counts = { silent: false, disagreements: 0 };
    const minute = releaseMinute(task, u, policy, counts);
    judgeDisagreements += counts.disagreements;
    if (counts.silent) silentLeases += 1;
    const endMs =
      minute === null ? task.endMs : Math.min(task.endMs, u.firstMinuteMs + (minute + 1) * MINUTE_MS);
    if (minute !== null) {
      released += 1;
      const from = minute - policy.forMinutes + 1;
      const busy = u.truth.some((own) =>
        own.subarray(from, minute + 1).some((v) => v >= policy.belowPercent),
      );
      if (busy) releasedNotIdle += 1;
      if (u.lastWorkMinute > minute) releasedWithWorkLeft += 1;
    }
    for (let gpu = 0; gpu < task.gpus; gpu++) {
      addGpu(noPolicy, task, u, gpu, task.endMs, priceMicroUsdPerHour, policy.belowPercent);
      addGpu(withPolicy, task, u, gpu, endMs, priceMicroUsdPerHour, policy.belowPercent);
    }
  }
  return {
    noPolicy,
    policy: withPolicy,
    leases: tasks.length,
    released,
    releasedNotIdle,
    releasedWithWorkLeft,
    silentLeases,
    judgeDisagreements,
  };
}
