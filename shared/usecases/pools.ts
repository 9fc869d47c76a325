import type { RentalMode } from '../domain/lease';
import type { MicroUsd } from '../domain/money';
import type { Pool } from '../domain/placement';
import { buildPools } from '../domain/pools';
import type { ControlPlane } from './dependencies';

type Deps = Pick<ControlPlane, 'catalog' | 'compute' | 'placement'>;

export interface PoolQuery {
  readonly instanceTypes: readonly string[];
  /** Allowed regions; every GPU region when absent. */
  readonly regions?: readonly string[] | undefined;
  readonly modes: readonly RentalMode[];
  readonly nowMs: number;
}

/**
 * The pools a lease could use now: the fleet's regions and zones, priced
 * (spot from EC2 unless configured otherwise), with recent capacity failures
 * from the unavailable-offerings cache applied.
 */
export async function livePools(deps: Deps, query: PoolQuery): Promise<Pool[]> {
  const allowed = query.regions ?? deps.placement.regions;
  const fleet = (await deps.compute.fleet()).filter((region) => allowed.includes(region.region));
  const modes = query.modes.filter((mode): mode is 'on-demand' | 'spot' => mode !== 'reserved');
  const spotPrices = new Map<string, Map<string, MicroUsd>>();
  if (modes.includes('spot') && deps.placement.spotPriceSource === 'ec2') {
    await Promise.all(
      fleet.map(async ({ region }) => {
        const types = query.instanceTypes.filter((type) => deps.catalog.isPricedIn(type, region));
        spotPrices.set(region, await deps.compute.spotPrices(region, types));
      }),
    );
  }
  const pools = buildPools({
    catalog: deps.catalog,
    regions: fleet,
    instanceTypes: query.instanceTypes,
    modes,
    spotPrices,
    spotCatalogRatio: deps.placement.spotCatalogRatio,
  });
  return deps.placement.unavailable.apply(pools, query.nowMs);
}
