import type { PriceCatalog } from '../catalog';
import { RENTAL_MODES, type RentalMode, type Workload } from '../lease';
import { costOfSeconds, type MicroUsd } from '../money';
import { monthBounds } from '../spend';

const HOUR_MS = 3_600_000;

/** Where a figure comes from: `not-tracked` until the control plane records it. */
export type ReservedCapacity =
  | { readonly source: 'not-tracked'; readonly gpus: 0; readonly idleGpuHours: 0; readonly idleMicroUsd: 0 }
  | {
      readonly source: 'reservations';
      readonly gpus: number;
      readonly idleGpuHours: number;
      readonly idleMicroUsd: MicroUsd;
    };

export type Interruptions =
  | { readonly source: 'not-tracked'; readonly count: 0 }
  | { readonly source: 'interruption-notices'; readonly count: number };

export const RESERVED_NOT_TRACKED: ReservedCapacity = {
  source: 'not-tracked',
  gpus: 0,
  idleGpuHours: 0,
  idleMicroUsd: 0,
};
export const INTERRUPTIONS_NOT_TRACKED: Interruptions = { source: 'not-tracked', count: 0 };

/** One daily rollup as the audit reads it. */
export interface DayModeCost {
  readonly day: string;
  readonly mode: RentalMode;
  readonly instanceType: string;
  readonly seconds: number;
  readonly microUsd: MicroUsd;
}

/** GPUs held from `startMs` to `endMs`. */
export interface GpuSpan {
  readonly gpus: number;
  readonly startMs: number;
  readonly endMs: number;
}

/** Leases of one workload that ran off spot although the policy would put them on spot. */
export interface SpotCandidate {
  readonly workload: Workload;
  readonly leases: number;
  readonly gpuHours: number;
}

/**
 * The planner's recommendation (planner/audit/month-recommendation.ts). Every
 * figure but the last is within the planner's model: each GPU a p3.2xlarge
 * (1x V100) at its us-east-1 rates, spot from the V100 traces; savings compare
 * the month as it ran with the policy at the same model prices, never model
 * prices with the bill.
 */
export interface AuditRecommendation {
  readonly model: {
    readonly instanceType: string;
    readonly onDemandMicroUsdPerHour: MicroUsd;
    readonly reservedMicroUsdPerHour: MicroUsd;
    readonly note: string;
  };
  /** Reserved GPUs to commit for the next term, from this month's training and inference demand. */
  readonly reservedGpus: number;
  readonly reservedReason: string;
  /** What committing `reservedGpus` for this month would have saved against on-demand. */
  readonly reservedSavingMicroUsd: MicroUsd;
  readonly spotCandidates: readonly SpotCandidate[];
  /** The month at the modes it ran in. */
  readonly asRanMicroUsd: MicroUsd;
  /** The month replayed through the live policies (mode choice, placement, spot reclaims). */
  readonly policyMicroUsd: MicroUsd;
  readonly policySavingMicroUsd: MicroUsd;
  /** The month's cost with the commitment as well: as ran − policy saving − reserved saving. */
  readonly recommendedMicroUsd: MicroUsd;
  /** The cheapest mix with perfect knowledge of the month. */
  readonly hindsightMicroUsd: MicroUsd;
  /** (policy saving + reserved saving) / as ran. */
  readonly savingShare: number;
  /** savingShare applied to what the tenant paid: an estimate, the model's share of the real bill. */
  readonly estimatedSavingOfPaidMicroUsd: MicroUsd;
}

export interface MonthlyAudit {
  readonly tenantId: string;
  readonly month: string;
  readonly generatedAt: string;
  /** False while the month runs: the figures are month to date. */
  readonly complete: boolean;
  readonly costMicroUsd: MicroUsd;
  readonly seconds: number;
  readonly byMode: readonly {
    readonly mode: RentalMode;
    readonly seconds: number;
    readonly costMicroUsd: MicroUsd;
    /** Of the month's cost, 0-1. */
    readonly share: number;
  }[];
  /** Every day of the month (to date), cost by mode. */
  readonly daily: readonly {
    readonly day: string;
    readonly costMicroUsd: Readonly<Record<RentalMode, MicroUsd>>;
  }[];
  readonly spotSavings: {
    readonly spotSeconds: number;
    readonly spotMicroUsd: MicroUsd;
    /** The same seconds at the catalog on-demand price of each instance type in the region. */
    readonly onDemandMicroUsd: MicroUsd;
    readonly savingMicroUsd: MicroUsd;
    readonly region: string;
  };
  readonly reserved: ReservedCapacity;
  readonly interruptions: Interruptions;
  /** Peak GPUs held at once in each hour of the month (to date), from the leases. */
  readonly concurrency: {
    readonly fromMs: number;
    readonly stepMs: number;
    readonly gpus: readonly number[];
  };
  /** GPU utilization by hour of day (UTC): null where nothing was measured. */
  readonly utilization: {
    readonly source: 'not-collected';
    readonly byHourOfDay: readonly (number | null)[];
  };
  /** null when the month had no lease to replay. */
  readonly recommendation: AuditRecommendation | null;
}

export interface AuditInput {
  readonly tenantId: string;
  readonly month: string;
  readonly nowMs: number;
  readonly region: string;
  readonly catalog: PriceCatalog;
  readonly rollups: readonly DayModeCost[];
  readonly spans: readonly GpuSpan[];
  readonly recommendation: Omit<AuditRecommendation, 'estimatedSavingOfPaidMicroUsd'> | null;
  readonly reserved?: ReservedCapacity;
  readonly interruptions?: Interruptions;
}

const zeroByMode = (): Record<RentalMode, MicroUsd> => ({ 'on-demand': 0, reserved: 0, spot: 0 });

/** The month's audit from its daily rollups, its leases and the planner's recommendation. */
export function buildMonthlyAudit(input: AuditInput): MonthlyAudit {
  const { startMs, endMs } = monthBounds(input.month);
  const untilMs = Math.min(endMs, input.nowMs);
  const cost = zeroByMode();
  const seconds = zeroByMode();
  const daily = new Map<string, Record<RentalMode, MicroUsd>>();
  for (let dayMs = startMs; dayMs < untilMs; dayMs += 24 * HOUR_MS) {
    daily.set(new Date(dayMs).toISOString().slice(0, 10), zeroByMode());
  }
  let spotSeconds = 0;
  let onDemandForSpot = 0;
  for (const rollup of input.rollups) {
    cost[rollup.mode] += rollup.microUsd;
    seconds[rollup.mode] += rollup.seconds;
    const day = daily.get(rollup.day) ?? zeroByMode();
    day[rollup.mode] += rollup.microUsd;
    daily.set(rollup.day, day);
    if (rollup.mode === 'spot') {
      spotSeconds += rollup.seconds;
      onDemandForSpot += costOfSeconds(
        rollup.seconds,
        input.catalog.onDemandMicroPerHour(rollup.instanceType, input.region),
      );
    }
  }
  const total = RENTAL_MODES.reduce((sum, mode) => sum + cost[mode], 0);
  const recommendation = input.recommendation && {
    ...input.recommendation,
    estimatedSavingOfPaidMicroUsd: Math.round(total * input.recommendation.savingShare),
  };
  return {
    tenantId: input.tenantId,
    month: input.month,
    generatedAt: new Date(input.nowMs).toISOString(),
    complete: input.nowMs >= endMs,
    costMicroUsd: total,
    seconds: RENTAL_MODES.reduce((sum, mode) => sum + seconds[mode], 0),
    byMode: RENTAL_MODES.map((mode) => ({
      mode,
      seconds: seconds[mode],
      costMicroUsd: cost[mode],
      share: total === 0 ? 0 : cost[mode] / total,
    })),
    daily: [...daily]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([day, byMode]) => ({ day, costMicroUsd: byMode })),
    spotSavings: {
      spotSeconds,
      spotMicroUsd: cost.spot,
      onDemandMicroUsd: onDemandForSpot,
      savingMicroUsd: onDemandForSpot - cost.spot,
      region: input.region,
    },
    reserved: input.reserved ?? RESERVED_NOT_TRACKED,
    interruptions: input.interruptions ?? INTERRUPTIONS_NOT_TRACKED,
    concurrency: { fromMs: startMs, stepMs: HOUR_MS, gpus: hourlyPeaks(input.spans, startMs, untilMs) },
    utilization: { source: 'not-collected', byHourOfDay: Array.from({ length: 24 }, () => null) },
    recommendation,
  };
}

/** The most GPUs held at once within each hour of [fromMs, toMs). */
export function hourlyPeaks(spans: readonly GpuSpan[], fromMs: number, toMs: number): number[] {
  const hours = Math.max(0, Math.ceil((toMs - fromMs) / HOUR_MS));
  const peaks = new Array<number>(hours).fill(0);
  // Ends before starts at one instant: a lease handing over to the next is not two at once.
  const changes = spans
    .filter((span) => span.endMs > span.startMs)
    .flatMap((span) => [
      { atMs: span.startMs, delta: span.gpus },
      { atMs: span.endMs, delta: -span.gpus },
    ])
    .sort((a, b) => a.atMs - b.atMs || a.delta - b.delta);
  let level = 0;
  for (let i = 0; i < changes.length; i += 1) {
    const change = changes[i] as { atMs: number; delta: number };
    level += change.delta;
    const nextMs = changes[i + 1]?.atMs ?? change.atMs;
    if (level <= 0 || nextMs <= change.atMs) continue;
    const first = Math.max(0, Math.floor((change.atMs - fromMs) / HOUR_MS));
    const last = Math.min(hours - 1, Math.ceil((nextMs - fromMs) / HOUR_MS) - 1);
    for (let hour = first; hour <= last; hour += 1) peaks[hour] = Math.max(peaks[hour] ?? 0, level);
  }
  return peaks;
}
