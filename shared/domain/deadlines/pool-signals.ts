import type { Pool } from '../placement';
import type { OnDemandOffer, SpotPoolSignal } from './policy-input';

/** How far back a pool's record counts: a day of the lease's own runs. */
export const SIGNAL_WINDOW_MS = 24 * 3_600_000;

/** One instance the lease ran, where and how it ended: its own record of a pool. */
export interface PoolRun {
  readonly zone: string;
  readonly startedAtMs: number;
  readonly endedAtMs?: number | undefined;
  /** Set when the pool took it back (a warning, or gone unasked). */
  readonly interruptedAtMs?: number | undefined;
}

/** What the market is asked about one job: its type, where it may run, how many machines, and its own record. */
export interface MarketQuery {
  readonly instanceType: string;
  readonly regions: readonly string[];
  /** Machines of the type the lease holds: prices are for the whole lease. */
  readonly machines: number;
  readonly history: readonly PoolRun[];
}

/**
 * The policy's view of each spot pool: its price for the lease, capacity and
 * back-off as the placement listing has them (EC2's spot prices, the
 * unavailable-offerings marks), and, from the lease's own runs over the
 * window, how often the pool took its machine back and how long it ran
 * there. The lease's interruptions are durable, where a container's marks are
 * not, so the later of the two is the pool's last failure.
 */
export function spotPoolSignals(pools: readonly Pool[], query: MarketQuery, nowMs: number): SpotPoolSignal[] {
  const since = nowMs - SIGNAL_WINDOW_MS;
  return pools
    .filter((pool) => pool.mode === 'spot' && pool.instanceType === query.instanceType)
    .map((pool) => {
      const runs = query.history.filter((run) => run.zone === pool.zone && (run.endedAtMs ?? nowMs) > since);
      const interruptions = runs
        .map((run) => run.interruptedAtMs)
        .filter((at): at is number => at !== undefined && at > since);
      const ranMs = runs.reduce(
        (sum, run) => sum + Math.max(0, (run.endedAtMs ?? nowMs) - Math.max(run.startedAtMs, since)),
        0,
      );
      const lastFailure = Math.max(
        pool.lastCapacityFailureAtMs ?? Number.NEGATIVE_INFINITY,
        ...interruptions,
      );
      return {
        zone: pool.zone,
        region: pool.region,
        priceMicroUsdPerHour: pool.priceMicroUsdPerHour * query.machines,
        available: pool.available,
        lastCapacityFailureAtMs: Number.isFinite(lastFailure) ? lastFailure : undefined,
        // The control plane keeps a pool's latest failure, not its first: the outage is at least that old.
        unavailableSinceMs: !pool.available && Number.isFinite(lastFailure) ? lastFailure : undefined,
        recentInterruptions: interruptions.length,
        // Never interrupted here: the window's whole length (the policy then expects an unbroken run).
        recentAvailableMs: interruptions.length > 0 ? ranMs : SIGNAL_WINDOW_MS,
        recentWindowMs: SIGNAL_WINDOW_MS,
      };
    });
}

/** The cheapest on-demand offer of each region, for the whole lease. */
export function onDemandOffers(pools: readonly Pool[], query: MarketQuery): OnDemandOffer[] {
  const cheapest = new Map<string, number>();
  for (const pool of pools) {
    if (pool.mode !== 'on-demand' || pool.instanceType !== query.instanceType) continue;
    const price = pool.priceMicroUsdPerHour * query.machines;
    cheapest.set(pool.region, Math.min(price, cheapest.get(pool.region) ?? price));
  }
  return [...cheapest].map(([region, priceMicroUsdPerHour]) => ({ region, priceMicroUsdPerHour }));
}
