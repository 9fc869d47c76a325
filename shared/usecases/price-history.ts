import type { LeaseInstance } from '../domain/lease';
import { type PriceChange, spotPoolKey, spotPoolOf } from '../domain/price-changes';
import type { ControlPlane } from './dependencies';

/** The recorded price changes each instance is billed with: its spot pool's, none for the other modes. */
export type PriceChangesOf = (instance: LeaseInstance) => readonly PriceChange[] | undefined;

/**
 * Reads the price history of the spot pools the instances run in, from the
 * oldest launch among them on (what was recorded up to now; a price recorded
 * later is in force only from then, so it cannot change what is charged here).
 */
export async function priceChangesOf(
  deps: Pick<ControlPlane, 'spotPrices'>,
  instances: readonly LeaseInstance[],
): Promise<PriceChangesOf> {
  const spot = instances.filter((instance) => spotPoolOf(instance) !== undefined);
  if (spot.length === 0) return () => undefined;
  const changes = await deps.spotPrices.changesSince(
    spot.flatMap((instance) => spotPoolOf(instance) ?? []),
    // A loop, not Math.min(...): the open list of a large fleet exceeds the arguments a call may take.
    spot.reduce((oldest, instance) => Math.min(oldest, instance.launchedAtMs), Number.POSITIVE_INFINITY),
  );
  return (instance) => {
    const pool = spotPoolOf(instance);
    return pool && changes.get(spotPoolKey(pool));
  };
}
