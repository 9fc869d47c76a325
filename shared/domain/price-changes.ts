import type { LeaseInstance } from './lease';
import type { MicroUsd } from './money';
import type { PriceSource } from './placement';

/** A spot pool: the (region, zone, instance type) whose price EC2 publishes. */
export interface SpotPool {
  readonly region: string;
  readonly zone: string;
  readonly instanceType: string;
}

export const spotPoolKey = (pool: SpotPool) => `${pool.region}/${pool.zone}/${pool.instanceType}`;

/** The spot pool an instance is billed by; none for other modes and for records from before regions. */
export function spotPoolOf(
  instance: Pick<LeaseInstance, 'mode' | 'region' | 'zone' | 'instanceType'>,
): SpotPool | undefined {
  const { mode, region, zone, instanceType } = instance;
  return mode === 'spot' && region !== undefined ? { region, zone, instanceType } : undefined;
}

/**
 * A pool's hourly price from `fromMs` on. `fromMs` is when gpurent recorded the
 * price, never earlier: history before an instant already billed never changes,
 * so a bill charged up to then stays right whatever is recorded afterwards.
 */
export interface PriceChange {
  readonly fromMs: number;
  readonly priceMicroUsdPerHour: MicroUsd;
  readonly source: PriceSource;
}

/** What a run pays per hour: its launch price, then its pool's changes after launch. */
export interface PricedRun {
  readonly launchedAtMs: number;
  /** The price in force at launch. */
  readonly priceMicroUsdPerHour: MicroUsd;
  /** The pool's recorded changes (spot only), in any order; those at or before launch do not apply. */
  readonly priceChanges?: readonly PriceChange[] | undefined;
}

/** The run's changes that apply to it (after launch), oldest first. */
export function changesAfterLaunch(run: PricedRun): PriceChange[] {
  return (run.priceChanges ?? [])
    .filter((change) => change.fromMs > run.launchedAtMs)
    .sort((a, b) => a.fromMs - b.fromMs);
}

/** The hourly price a run pays at `atMs`, since when, and where it came from (`launch`: fixed at launch). */
export interface PriceInForce {
  readonly priceMicroUsdPerHour: MicroUsd;
  readonly sinceMs: number;
  readonly source: PriceSource | 'launch';
}

export function priceInForce(run: PricedRun, atMs: number): PriceInForce {
  const latest = changesAfterLaunch(run)
    .filter((change) => change.fromMs <= atMs)
    .at(-1);
  return latest
    ? { priceMicroUsdPerHour: latest.priceMicroUsdPerHour, sinceMs: latest.fromMs, source: latest.source }
    : { priceMicroUsdPerHour: run.priceMicroUsdPerHour, sinceMs: run.launchedAtMs, source: 'launch' };
}
