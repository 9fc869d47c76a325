import type { RentalMode, Workload } from './lease';
import { formatUsd, type MicroUsd } from './money';
import { choosePool, type Pool, poolKey, withCapacityFailure } from './placement';

/** AWS's notice before it takes spot capacity back. */
export const RECLAIM_WARNING_MS = 120_000;

/**
 * When a warned instance stops holding (and billing) GPUs for its lease: when
 * gpurent ends it, and never past the two minutes of the warning, whether or
 * not AWS took it by then.
 */
export function warnedInstanceEnd(warnedAtMs: number, nowMs: number): number {
  return Math.min(nowMs, warnedAtMs + RECLAIM_WARNING_MS);
}

/**
 * Billed time a replacement spends booting from the pre-baked image and
 * restoring the checkpoint written during the warning before the work moves on.
 */
export const RESTART_MS = 300_000;

export interface ReclaimRequest {
  readonly workload: Workload;
  readonly instanceType: string;
  /** The pool whose spot capacity is being taken back. */
  readonly reclaimedPool: Pool;
  readonly warnedAtMs: number;
  /** The lease's fallback from its mode decision. */
  readonly fallback: RentalMode | null;
  /** Every pool as seen at the warning, the reclaimed one included. */
  readonly pools: readonly Pool[];
}

export interface ReclaimPlan {
  /**
   * The reclaimed instances keep working (and are billed) until AWS takes them,
   * writing the checkpoint the replacement restores; the replacement launches then.
   */
  readonly relaunchAtMs: number;
  /** Billed replacement time that makes no progress: the work ends this much later. */
  readonly restartMs: number;
  /** Where the work resumes, or null when no pool can take it. */
  readonly pool: Pool | null;
  /** The reclaimed pool as failed at the warning, for the caller's offering cache. */
  readonly failedPool: Pool;
  readonly reason: string;
}

/**
 * The reaction to a spot reclaim warning: resume in the cheapest other spot pool
 * with capacity (the reclaimed one sits out its back-off), else in the lease's
 * fallback mode. Inference never resumes on spot: it should not have been
 * there, and a second reclaim would drop its requests again.
 */
export function planReclaim(request: ReclaimRequest): ReclaimPlan {
  const failedPool = withCapacityFailure(request.reclaimedPool, request.warnedAtMs);
  const failedKey = poolKey(failedPool);
  const pools = request.pools.map((pool) => (poolKey(pool) === failedKey ? failedPool : pool));
  const place = (mode: RentalMode) =>
    choosePool({ instanceType: request.instanceType, mode, nowMs: request.warnedAtMs }, pools);
  const timing = {
    relaunchAtMs: request.warnedAtMs + RECLAIM_WARNING_MS,
    restartMs: RESTART_MS,
    failedPool,
  };
  const reclaimed = `spot reclaimed in ${request.reclaimedPool.zone}`;

  let spotMiss: string;
  if (request.workload === 'inference') {
    spotMiss = 'inference never resumes on spot';
  } else {
    const spot = place('spot');
    if (spot.pool) return { ...timing, pool: spot.pool, reason: `${reclaimed}; resuming on ${spot.reason}` };
    spotMiss = spot.reason;
  }
  if (request.fallback === null || request.fallback === 'spot') {
    return { ...timing, pool: null, reason: `${reclaimed}; ${spotMiss}; the lease has no fallback` };
  }
  const fallback = place(request.fallback);
  return {
    ...timing,
    pool: fallback.pool,
    reason: `${reclaimed}; ${spotMiss}; falling back to ${fallback.reason}`,
  };
}

export interface ReturnToSpotRequest {
  readonly workload: Workload;
  readonly instanceType: string;
  /** What each instance costs per hour where it runs now (its on-demand fallback). */
  readonly currentPriceMicroUsdPerHour: MicroUsd;
  /** When the lease started: its age stands in for the time it has left, which nobody knows. */
  readonly leaseStartedAtMs: number;
  readonly nowMs: number;
  readonly pools: readonly Pool[];
}

/** Where to move the lease's instances back to spot, or null (with the reason) to stay. */
export interface ReturnToSpotPlan {
  readonly pool: Pool | null;
  readonly reason: string;
}

/**
 * A lease that fell back from spot goes back once spot capacity returns, if the
 * saving over the time it probably has left beats the billed restart. Nobody
 * knows when a lease ends; with heavy-tailed job lengths a lease that has run
 * for t is about as likely as not to run another t, so its age is the estimate.
 */
export function planReturnToSpot(request: ReturnToSpotRequest): ReturnToSpotPlan {
  if (request.workload === 'inference') return { pool: null, reason: 'inference never goes to spot' };
  const spot = choosePool(
    { instanceType: request.instanceType, mode: 'spot', nowMs: request.nowMs },
    request.pools,
  );
  if (!spot.pool) return { pool: null, reason: spot.reason };
  const spotPrice = spot.pool.priceMicroUsdPerHour;
  const expectedLeftMs = request.nowMs - request.leaseStartedAtMs;
  const savingPerHour = request.currentPriceMicroUsdPerHour - spotPrice;
  // A comparison, not an amount billed: both sides in µ$·ms per hour.
  const saving = savingPerHour * expectedLeftMs;
  const restart = spotPrice * RESTART_MS;
  if (saving <= restart) {
    return {
      pool: null,
      reason: `staying: ${Math.round(expectedLeftMs / 1000)} s more at $${formatUsd(savingPerHour)}/h less would not pay for a ${RESTART_MS / 60_000}-minute restart`,
    };
  }
  return { pool: spot.pool, reason: `back to ${spot.reason}; expected saving beats the restart` };
}
