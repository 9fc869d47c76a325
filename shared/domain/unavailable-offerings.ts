import { FAILED_POOL_BACKOFF_MS, type Pool, poolKey, withCapacityFailure } from './placement';

/**
 * Offerings that refused capacity lately, as Karpenter's unavailable-offerings
 * cache: an entry lives FAILED_POOL_BACKOFF_MS, so the next lease in the same
 * container does not try the same empty pool first. Time is always an argument.
 */
export class UnavailableOfferings {
  private readonly failedAtMs = new Map<string, number>();

  markUnavailable(pool: Pool, atMs: number): void {
    this.failedAtMs.set(poolKey(pool), atMs);
  }

  /** The pools with their recent failures applied; expired entries are dropped on the way. */
  apply(pools: readonly Pool[], nowMs: number): Pool[] {
    for (const [key, atMs] of this.failedAtMs) {
      if (nowMs - atMs >= FAILED_POOL_BACKOFF_MS) this.failedAtMs.delete(key);
    }
    return pools.map((pool) => {
      const atMs = this.failedAtMs.get(poolKey(pool));
      return atMs === undefined ? pool : withCapacityFailure(pool, atMs);
    });
  }

  get size(): number {
    return this.failedAtMs.size;
  }
}
