import type { RentalMode } from './lease';
import { formatUsd, type MicroUsd } from './money';

/**
 * After a launch fails for lack of capacity (or the pool's spot capacity is
 * reclaimed), the pool sits out this long before it is tried again, as
 * Karpenter does with its unavailable-offerings cache: capacity rarely comes
 * back within minutes, and retrying it would only delay the lease.
 */
export const FAILED_POOL_BACKOFF_MS = 3 * 60_000;

/** One place capacity can come from: (region, zone, instance type, rental mode), with its price now. */
export interface Pool {
  readonly region: string;
  readonly zone: string;
  readonly instanceType: string;
  readonly mode: RentalMode;
  readonly priceMicroUsdPerHour: MicroUsd;
  /** Whether capacity is believed to be there now (spot capacity history); on-demand pools are always available. */
  readonly available: boolean;
  /** When a launch into this pool last failed for lack of capacity, or its capacity was reclaimed. */
  readonly lastCapacityFailureAtMs?: number | undefined;
}

export interface PlacementRequest {
  readonly instanceType: string;
  readonly mode: RentalMode;
  readonly nowMs: number;
}

/** The chosen pool, or null when no pool of the mode can take the lease now; `reason` says why either way. */
export interface Placement {
  readonly pool: Pool | null;
  readonly reason: string;
}

export function poolKey(pool: Pick<Pool, 'region' | 'zone' | 'instanceType' | 'mode'>): string {
  return `${pool.mode}/${pool.region}/${pool.zone}/${pool.instanceType}`;
}

export function isBackedOff(pool: Pool, nowMs: number): boolean {
  const failedAt = pool.lastCapacityFailureAtMs;
  return failedAt !== undefined && nowMs - failedAt < FAILED_POOL_BACKOFF_MS;
}

/** The pool as it stands after a capacity failure at `atMs`. */
export function withCapacityFailure(pool: Pool, atMs: number): Pool {
  return { ...pool, lastCapacityFailureAtMs: atMs };
}

/**
 * The cheapest pool of the requested mode and instance type that has capacity
 * and has not failed within the back-off; ties keep the callers' order, so a
 * caller lists its preferred regions first.
 */
export function choosePool(request: PlacementRequest, pools: readonly Pool[]): Placement {
  let best: Pool | null = null;
  const skipped: string[] = [];
  for (const pool of pools) {
    if (pool.mode !== request.mode || pool.instanceType !== request.instanceType) continue;
    if (!pool.available) {
      skipped.push(`${pool.zone} has no capacity`);
    } else if (isBackedOff(pool, request.nowMs)) {
      const ago = Math.round((request.nowMs - (pool.lastCapacityFailureAtMs ?? 0)) / 1000);
      skipped.push(`${pool.zone} failed ${ago} s ago`);
    } else if (best === null || pool.priceMicroUsdPerHour < best.priceMicroUsdPerHour) {
      best = pool;
    }
  }
  const skippedText = skipped.length > 0 ? ` (skipped: ${skipped.join(', ')})` : '';
  if (best === null) {
    return {
      pool: null,
      reason: `no ${request.mode} pool for ${request.instanceType} can launch now${skippedText}`,
    };
  }
  return {
    pool: best,
    reason: `${request.mode} ${best.zone} at $${formatUsd(best.priceMicroUsdPerHour)}/h, the cheapest open pool${skippedText}`,
  };
}
