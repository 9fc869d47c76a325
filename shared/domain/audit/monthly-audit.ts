import {
  dailyQueueFigures,
  type LeaseWait,
  type QueueFigures,
  queueFigures,
} from '../admission/queue-figures';
import type { PriceCatalog } from '../catalog';
import type { MonthIdle } from '../commitments';
import {
  type MeasuredGpu,
  UTILIZATION_METHOD,
  type Utilization,
  utilizationByHourOfDay,
  utilizationOver,
} from '../gpu-utilization';
import { RENTAL_MODES, type RentalMode, type Workload } from '../lease';
import { costOfSeconds, formatUsdForPeople, type MicroUsd } from '../money';
import { BILLING_DIMENSIONS, type BillingDimension, monthBounds } from '../spend';
import { dailyTaskTime, type TaskOfWorkload, type TaskTimeOfWindow, taskTimeOf } from '../tasks/task-time';
import { type DimensionLine, dimensionLines } from '../usage';
import { type IdleCost, type IdleRollup, idleCostOf, idleFinding } from './idle-cost';

const HOUR_MS = 3_600_000;

/**
 * Reserved capacity of the month. Commitments are bought for the fleet and
 * shared by every tenant, so these are the fleet's figures, the same in every
 * tenant's audit: what was committed and paid for while no lease used it.
 */
export interface ReservedCapacity {
  readonly source: 'reservations';
  readonly scope: 'fleet';
  /** Commitments active in the month: the metering ticks recorded their idle time, none or some. */
  readonly commitments: number;
  /** GPUs those commitments hold. */
  readonly gpus: number;
  readonly idleGpuHours: number;
  /** The idle time at each commitment's effective rate. */
  readonly idleMicroUsd: MicroUsd;
}

/** The tenant's instances that spot reclaimed (or EC2 ended unasked) in the month. */
export interface Interruptions {
  readonly source: 'interruption-notices';
  readonly count: number;
  readonly byWorkload: Readonly<Partial<Record<Workload, number>>>;
}

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
 * The planner's recommendation (shared/planning/month-recommendation.ts). Every
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
  /** The month's cost split by what it paid for: compute, the instances' volumes, data moved between regions. */
  readonly byDimension?: Readonly<Record<BillingDimension, MicroUsd>>;
  /** The fleet's own storage (stopped machines' volumes): the operator's overhead, billed to no tenant. */
  readonly fleetOverhead?: { readonly scope: 'fleet'; readonly storageMicroUsd: MicroUsd };
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
  /** GPU utilization (%) from the tenant's GPU telemetry: over the month, and by hour of day (UTC). */
  readonly utilization: {
    readonly source: 'cloudwatch-agent';
    readonly method: string;
    readonly month: Utilization;
    /** null for an hour of the day no GPU sent a sample in: no telemetry, not 0%. */
    readonly byHourOfDay: readonly (number | null)[];
  };
  /** The leases' tasks: seconds run and the wait from lease request to task start, by workload. */
  readonly tasks: {
    readonly source: 'lease-tasks';
    readonly month: TaskTimeOfWindow;
    /** Every day of the month (to date). */
    readonly daily: readonly ({ readonly day: string } & TaskTimeOfWindow)[];
  };
  /**
   * The leases' waits for admission (from each lease's queue history): wait
   * p50/p95 by workload, time waiting on the tenant's quota, and GPU-hours
   * waiting on the account's EC2 quota by region and family.
   */
  readonly queue: {
    readonly source: 'lease-queue-history';
    readonly month: QueueFigures;
    /** Every day of the month (to date). */
    readonly daily: readonly ({ readonly day: string } & QueueFigures)[];
  };
  /** What the tenant's GPUs cost while idle, from the waste ledger's rollups (not raw metrics). */
  readonly idle: IdleCost;
  /** What idle reserved capacity, idle GPUs and interruptions mean for the tenant, in sentences. */
  readonly findings: readonly string[];
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
  /** The month's storage and transfer rollups (compute is the rest; none: all compute). */
  readonly dimensions?: readonly DimensionLine[] | undefined;
  /** The fleet's storage overhead of the month, where the fleet meters it. */
  readonly fleetStorageMicroUsd?: MicroUsd | undefined;
  readonly spans: readonly GpuSpan[];
  readonly recommendation: Omit<AuditRecommendation, 'estimatedSavingOfPaidMicroUsd'> | null;
  /** The fleet's commitments' idle time recorded in the month. */
  readonly idleReserved: readonly MonthIdle[];
  /** The tenant's instances of the month's leases, with when spot reclaimed them. */
  readonly instances: readonly InstanceOfWorkload[];
  /** The tenant's GPUs that ran in the month with their telemetry. */
  readonly gpus: readonly MeasuredGpu[];
  /** The tasks of the tenant's leases. */
  readonly tasks: readonly TaskOfWorkload[];
  /** The waits for admission of the tenant's leases. */
  readonly waits: readonly LeaseWait[];
  /** The waste ledger's daily idle rollups of the month (tenant, project, lease). */
  readonly idleRollups: readonly IdleRollup[];
}

export interface InstanceOfWorkload {
  readonly workload: Workload;
  readonly interruptedAtMs?: number | undefined;
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
  // Spot's saving compares instance time with instance time: its volumes and transfers would cost the same on-demand.
  const spotCompute =
    cost.spot -
    (input.dimensions ?? []).reduce((sum, line) => sum + (line.mode === 'spot' ? line.microUsd : 0), 0);
  const reserved = reservedCapacity(input.idleReserved);
  const interruptions = interruptionsIn(input.instances, startMs, untilMs);
  const idle = idleCostOf(input.idleRollups, total);
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
    byDimension: byDimension(input),
    ...(input.fleetStorageMicroUsd === undefined
      ? {}
      : { fleetOverhead: { scope: 'fleet' as const, storageMicroUsd: input.fleetStorageMicroUsd } }),
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
      spotMicroUsd: spotCompute,
      onDemandMicroUsd: onDemandForSpot,
      savingMicroUsd: onDemandForSpot - spotCompute,
      region: input.region,
    },
    reserved,
    interruptions,
    concurrency: { fromMs: startMs, stepMs: HOUR_MS, gpus: hourlyPeaks(input.spans, startMs, untilMs) },
    utilization: {
      source: 'cloudwatch-agent',
      method: UTILIZATION_METHOD,
      month: utilizationOver(input.gpus, startMs, untilMs),
      byHourOfDay: utilizationByHourOfDay(input.gpus),
    },
    tasks: {
      source: 'lease-tasks',
      month: taskTimeOf(input.tasks, startMs, untilMs, input.nowMs),
      daily: [...dailyTaskTime(input.tasks, startMs, untilMs, input.nowMs)].map(([day, time]) => ({
        day,
        ...time,
      })),
    },
    queue: {
      source: 'lease-queue-history',
      month: queueFigures(input.waits, startMs, untilMs),
      daily: [...dailyQueueFigures(input.waits, startMs, untilMs, input.nowMs)].map(([day, figures]) => ({
        day,
        ...figures,
      })),
    },
    idle,
    findings: findingsOf(reserved, interruptions, idle),
    recommendation,
  };
}

function reservedCapacity(idle: readonly MonthIdle[]): ReservedCapacity {
  return {
    source: 'reservations',
    scope: 'fleet',
    commitments: idle.length,
    gpus: idle.reduce((sum, c) => sum + c.committedGpus, 0),
    idleGpuHours: Math.round((idle.reduce((sum, c) => sum + c.idleGpuSeconds, 0) / 3600) * 100) / 100,
    idleMicroUsd: idle.reduce((sum, c) => sum + c.idleMicroUsd, 0),
  };
}

/** Instances interrupted within [fromMs, toMs), by the workload of their lease. */
function interruptionsIn(
  instances: readonly InstanceOfWorkload[],
  fromMs: number,
  toMs: number,
): Interruptions {
  const byWorkload: Partial<Record<Workload, number>> = {};
  let count = 0;
  for (const { workload, interruptedAtMs } of instances) {
    if (interruptedAtMs === undefined || interruptedAtMs < fromMs || interruptedAtMs >= toMs) continue;
    byWorkload[workload] = (byWorkload[workload] ?? 0) + 1;
    count += 1;
  }
  return { source: 'interruption-notices', count, byWorkload };
}

function findingsOf(reserved: ReservedCapacity, interruptions: Interruptions, idle: IdleCost): string[] {
  const findings: string[] = [];
  const idleGpus = idleFinding(idle);
  if (idleGpus) findings.push(idleGpus);
  if (reserved.idleMicroUsd > 0) {
    findings.push(
      `The fleet's ${reserved.commitments} reserved commitment(s) (${reserved.gpus} GPUs, shared by every ` +
        `tenant) sat idle ${reserved.idleGpuHours} GPU-hours, ${formatUsdForPeople(reserved.idleMicroUsd)} paid for ` +
        'nothing: training and inference leases fill them before any on-demand GPU, so run them there, or ' +
        'commit fewer GPUs when the term renews.',
    );
  }
  if (interruptions.count > 0) {
    const workloads = Object.entries(interruptions.byWorkload)
      .map(([workload, count]) => `${workload} ${count}`)
      .join(', ');
    findings.push(
      `Spot reclaimed ${interruptions.count} of your instance(s) (${workloads}); each was replaced. ` +
        'Work that cannot restart from a checkpoint costs less on on-demand or reserved than rerun on spot.',
    );
  }
  return findings;
}

function byDimension(input: AuditInput): Record<BillingDimension, MicroUsd> {
  const split = Object.fromEntries(BILLING_DIMENSIONS.map((d) => [d, 0])) as Record<
    BillingDimension,
    MicroUsd
  >;
  for (const line of dimensionLines(input.rollups, input.dimensions ?? []))
    split[line.dimension ?? 'compute'] += line.microUsd;
  return split;
}

/**
 * Audits stored before utilization, idle reserved time and interruptions were
 * recorded have no `findings`, those stored before task time no `tasks`, before
 * the waste ledger no `idle`, before admission no `queue`: they lack the figures the report now draws.
 */
export function hasCurrentShape(audit: MonthlyAudit): boolean {
  const stored = audit as Partial<MonthlyAudit>;
  return (
    Array.isArray(stored.findings) &&
    stored.tasks !== undefined &&
    stored.idle !== undefined &&
    stored.queue !== undefined
  );
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
