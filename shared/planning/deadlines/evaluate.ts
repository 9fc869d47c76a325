import type { DeadlinePolicy } from '../../domain/deadlines/policy-input';
import { allOnDemandMicroUsd, type DeadlineJobSpec, type DeadlineMarket, jobTicks } from './market';
import { offlineOptimumMicroUsd } from './optimum';
import { type JobOutcome, simulateJob } from './simulate';

const MS_PER_HOUR = 3_600_000;
const MS_PER_MINUTE = 60_000;

/** One job shape: work on one machine, the deadline as a multiple of the work, the restart. */
export interface DeadlineSetting {
  readonly workHours: number;
  readonly deadlineFactor: number;
  readonly restartMinutes: number;
}

/** The grid of "Can't Be Late": 12, 24 and 48 hours of work; deadlines at 1.1×, 1.3× and 2×; restarts of 5 and 30 minutes. */
export const PAPER_SETTINGS: readonly DeadlineSetting[] = [12, 24, 48].flatMap((workHours) =>
  [1.1, 1.3, 2].flatMap((deadlineFactor) =>
    [5, 30].map((restartMinutes) => ({ workHours, deadlineFactor, restartMinutes })),
  ),
);

export interface JobPlacementTerms {
  readonly checkpointGb: number;
  readonly homeRegion: string;
}

export function settingJob(
  setting: DeadlineSetting,
  startTick: number,
  terms: JobPlacementTerms,
): DeadlineJobSpec {
  const workMs = setting.workHours * MS_PER_HOUR;
  return {
    startTick,
    workMs,
    deadlineAfterMs: Math.round(workMs * setting.deadlineFactor),
    restartMs: setting.restartMinutes * MS_PER_MINUTE,
    ...terms,
  };
}

/** `count` start ticks spread evenly over the traces, leaving room for the longest deadline. */
export function spreadStarts(market: DeadlineMarket, longestMs: number, count: number): number[] {
  const room = market.ticks - Math.ceil(longestMs / market.tickMs);
  return Array.from({ length: count }, (_, i) => Math.floor(((i + 0.5) * room) / count));
}

export interface PolicyFigures {
  /** Mean over jobs of cost / all on-demand. */
  readonly costVsOnDemand: number;
  /** Mean over jobs of cost / the offline optimum. */
  readonly costVsOptimum: number;
  readonly misses: number;
  /** Jobs that cost more than all on-demand. */
  readonly dearerThanOnDemand: number;
  readonly causes: CostCauses;
  /** Each job's cost / the offline optimum, in start order: policies compared job by job on the same starts. */
  readonly jobCostsVsOptimum: readonly number[];
}

/** Means over jobs of where the money and the time went (`CostBreakdown`), each as a share of all on-demand or of the work. */
export interface CostCauses {
  readonly restartsVsOnDemand: number;
  readonly transfersVsOnDemand: number;
  readonly spotPremiumVsOnDemand: number;
  readonly onDemandVsOnDemand: number;
  /** On-demand progress in ticks when some allowed zone had capacity, over the work. */
  readonly onDemandWhileSpotVsWork: number;
  readonly idleVsWork: number;
  /** Time left between the finish and the deadline, over the work. */
  readonly spareVsWork: number;
}

const NO_CAUSES: CostCauses = {
  restartsVsOnDemand: 0,
  transfersVsOnDemand: 0,
  spotPremiumVsOnDemand: 0,
  onDemandVsOnDemand: 0,
  onDemandWhileSpotVsWork: 0,
  idleVsWork: 0,
  spareVsWork: 0,
};

function causesOf(outcome: JobOutcome, onDemand: number, workTicks: number): CostCauses {
  const b = outcome.breakdown;
  return {
    restartsVsOnDemand: b.restartMicroUsd / onDemand,
    transfersVsOnDemand: b.transferMicroUsd / onDemand,
    spotPremiumVsOnDemand: b.spotPremiumMicroUsd / onDemand,
    onDemandVsOnDemand: b.onDemandProgressMicroUsd / onDemand,
    onDemandWhileSpotVsWork: b.onDemandWhileSpotTicks / workTicks,
    idleVsWork: b.idleTicks / workTicks,
    spareVsWork: b.spareTicks / workTicks,
  };
}

/** Causes weighted: `a` × wa + `b` × wb, key by key. */
export function weighCauses(a: CostCauses, wa: number, b: CostCauses, wb: number): CostCauses {
  const out: Record<string, number> = {};
  for (const key of Object.keys(a) as (keyof CostCauses)[]) out[key] = a[key] * wa + b[key] * wb;
  return out as unknown as CostCauses;
}

export interface SettingOutcome {
  readonly setting: DeadlineSetting;
  readonly jobs: number;
  /** Jobs even all on-demand could not finish in time (left out of every figure). */
  readonly infeasible: number;
  readonly optimumVsOnDemand: number;
  readonly policies: Readonly<Record<string, PolicyFigures>>;
}

interface Sums {
  vsOd: number;
  jobsVsOpt: number[];
  misses: number;
  dearer: number;
  causes: CostCauses;
}

/** Every policy and the offline optimum over the same jobs, one per start tick. */
export function evaluateSetting(
  market: DeadlineMarket,
  setting: DeadlineSetting,
  starts: readonly number[],
  terms: JobPlacementTerms,
  policies: Readonly<Record<string, DeadlinePolicy>>,
): SettingOutcome {
  const names = Object.keys(policies);
  const sums = new Map(
    names.map((name) => [name, { vsOd: 0, jobsVsOpt: [], misses: 0, dearer: 0, causes: NO_CAUSES }]),
  );
  let jobs = 0;
  let infeasible = 0;
  let optimumVsOd = 0;
  for (const startTick of starts) {
    const job = settingJob(setting, startTick, terms);
    const workTicks = jobTicks(market, job).work;
    const optimum = offlineOptimumMicroUsd(market, job);
    if (optimum === null) {
      infeasible += 1;
      continue;
    }
    jobs += 1;
    const onDemand = allOnDemandMicroUsd(market, job);
    optimumVsOd += optimum / onDemand;
    for (const name of names) {
      const outcome = simulateJob(market, job, policies[name] as DeadlinePolicy);
      const sum = sums.get(name) as Sums;
      sum.causes = weighCauses(sum.causes, 1, causesOf(outcome, onDemand, workTicks), 1);
      sum.vsOd += outcome.costMicroUsd / onDemand;
      sum.jobsVsOpt.push(outcome.costMicroUsd / optimum);
      if (!outcome.finished) sum.misses += 1;
      if (outcome.costMicroUsd > onDemand) sum.dearer += 1;
    }
  }
  const mean = (total: number) => (jobs === 0 ? 0 : total / jobs);
  return {
    setting,
    jobs,
    infeasible,
    optimumVsOnDemand: mean(optimumVsOd),
    policies: Object.fromEntries(
      names.map((name) => {
        const sum = sums.get(name) as Sums;
        return [
          name,
          {
            costVsOnDemand: mean(sum.vsOd),
            costVsOptimum: mean(sum.jobsVsOpt.reduce((total, ratio) => total + ratio, 0)),
            misses: sum.misses,
            dearerThanOnDemand: sum.dearer,
            causes: weighCauses(sum.causes, jobs === 0 ? 0 : 1 / jobs, NO_CAUSES, 0),
            jobCostsVsOptimum: sum.jobsVsOpt,
          },
        ];
      }),
    ),
  };
}
