import type { PriceChange, SpotPool } from '../domain/price-changes';

/**
 * The spot price history of the pools gpurent runs in, as gpurent recorded it:
 * append-only, each change in force from the instant it was recorded.
 */
export interface SpotPriceHistory {
  /** Each pool's changes recorded after `sinceMs`, oldest first, keyed by `spotPoolKey`. */
  changesSince(pools: readonly SpotPool[], sinceMs: number): Promise<Map<string, PriceChange[]>>;
  /** Appends a change; a change already recorded at the same instant is kept as it is. */
  record(pool: SpotPool, change: PriceChange): Promise<void>;
}
