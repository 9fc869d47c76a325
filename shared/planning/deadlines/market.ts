import type { OnDemandOffer } from '../../domain/deadlines/policy-input';
import { checkpointTransferMicroUsd, type TransferCosts } from '../../domain/deadlines/transfer';

/** One zone's spot history, tick by tick (the V100 traces' layout). */
export interface DeadlineZone {
  readonly zone: string;
  readonly region: string;
  /** 1 where the zone had NO spot capacity during the tick (the traces' own convention), 0 where it had some. */
  readonly unavailable: ArrayLike<number>;
  readonly priceMicroUsdPerHour: ArrayLike<number>;
}

/** The world a deadline job is replayed in: spot traces of the allowed zones, on-demand offers, transfer rates. */
export interface DeadlineMarket {
  readonly tickMs: number;
  readonly ticks: number;
  readonly zones: readonly DeadlineZone[];
  /** On-demand never runs out; one offer per allowed region. */
  readonly onDemand: readonly OnDemandOffer[];
  readonly transferCosts: TransferCosts;
  /** Trailing window of the per-pool interruption signal the policies read. */
  readonly signalWindowTicks: number;
}

/** A job as submitted: the times are lengths from its start tick. */
export interface DeadlineJobSpec {
  readonly startTick: number;
  readonly workMs: number;
  readonly deadlineAfterMs: number;
  readonly restartMs: number;
  readonly checkpointGb: number;
  /** Where its data and first checkpoint live. */
  readonly homeRegion: string;
}

/**
 * The job in whole ticks, as the replay runs it: work and restarts rounded up
 * (a restart that ends mid-tick lets the work move on only at the next tick),
 * the deadline rounded down. Rounding only ever makes the job harder.
 */
export interface JobTicks {
  readonly work: number;
  readonly restart: number;
  readonly deadline: number;
}

export class DeadlineJobError extends Error {
  constructor(
    readonly job: DeadlineJobSpec,
    problem: string,
  ) {
    super(`job starting at tick ${job.startTick}: ${problem}`);
    this.name = 'DeadlineJobError';
  }
}

export function jobTicks(market: DeadlineMarket, job: DeadlineJobSpec): JobTicks {
  const ticks = {
    work: Math.ceil(job.workMs / market.tickMs),
    restart: Math.ceil(job.restartMs / market.tickMs),
    deadline: Math.floor(job.deadlineAfterMs / market.tickMs),
  };
  if (job.startTick < 0 || job.startTick + ticks.deadline > market.ticks) {
    throw new DeadlineJobError(job, `its deadline falls outside the ${market.ticks} ticks of the traces`);
  }
  if (ticks.work < 1) throw new DeadlineJobError(job, 'no work');
  return ticks;
}

/** Whether all on-demand, started at once, finishes by the deadline: the jobs the guarantee is about. */
export function isFeasibleOnDemand(ticks: JobTicks): boolean {
  return ticks.restart + ticks.work <= ticks.deadline;
}

/** Hourly price × milliseconds: the exact integer unit replays add costs in (1 µ$ = 3,600,000 units). */
export const UNITS_PER_MICRO_USD = 3_600_000;

export function transferUnits(market: DeadlineMarket, gb: number, from: string, to: string): number {
  return checkpointTransferMicroUsd(market.transferCosts, gb, from, to) * UNITS_PER_MICRO_USD;
}

/** The regions of the market: those of its zones and on-demand offers, in first-seen order. */
export function marketRegions(market: DeadlineMarket): string[] {
  return [...new Set([...market.zones.map((z) => z.region), ...market.onDemand.map((o) => o.region)])];
}

/** All on-demand from the start, in the home region's offer (else the cheapest), in µ$. */
export function allOnDemandMicroUsd(market: DeadlineMarket, job: DeadlineJobSpec): number {
  const ticks = jobTicks(market, job);
  const runMs = (ticks.restart + ticks.work) * market.tickMs;
  let best = Number.POSITIVE_INFINITY;
  for (const offer of market.onDemand) {
    const units = transferUnits(market, job.checkpointGb, job.homeRegion, offer.region);
    best = Math.min(best, (units + offer.priceMicroUsdPerHour * runMs) / UNITS_PER_MICRO_USD);
  }
  return best;
}
