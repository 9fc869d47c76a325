import { SpotDataError } from '../shared/adapters/spot-trace-files';
import type { PriceCatalog } from '../shared/domain/catalog';
import type { SpotZone } from '../shared/planning/spot-market';

/**
 * Refuses spot zones in a region where `catalog` has no on-demand price of
 * `instanceType`: a replay prices on-demand in every traced zone's region.
 * `file` is what the user fixes, `remedy` says how.
 */
export function requirePricedZones(
  zones: readonly SpotZone[],
  catalog: PriceCatalog,
  instanceType: string,
  file: string,
  remedy: string,
): void {
  const unpriced = zones.filter((zone) => !catalog.isPricedIn(instanceType, zone.region));
  if (unpriced.length === 0) return;
  const regions = [...new Set(unpriced.map((zone) => zone.region))];
  throw new SpotDataError(
    file,
    `no on-demand price of ${instanceType} in ${regions.join(', ')} ` +
      `(zones ${unpriced.map((zone) => zone.zone).join(', ')}): ${remedy}`,
  );
}
