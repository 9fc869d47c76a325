import type { PriceCatalog } from './catalog';
import type { RentalMode } from './lease';
import type { MicroUsd } from './money';
import type { Pool } from './placement';

/** Key of a published spot price: the zone and the instance type. */
export const spotPriceKey = (zone: string, instanceType: string) => `${zone}/${instanceType}`;

/** A GPU region and the zones the fleet has subnets in. */
export interface PoolRegion {
  readonly region: string;
  readonly zones: readonly string[];
}

export interface PoolSpec {
  readonly catalog: PriceCatalog;
  /** Regions in preference order (home first): equal prices keep this order. */
  readonly regions: readonly PoolRegion[];
  readonly instanceTypes: readonly string[];
  /** On-demand and spot: reserved pools come from commitments, not from here. */
  readonly modes: readonly Extract<RentalMode, 'on-demand' | 'spot'>[];
  /** Published spot prices per region, keyed `zone/instanceType`. */
  readonly spotPrices: ReadonlyMap<string, ReadonlyMap<string, MicroUsd>>;
  /** Spot price as a share of on-demand where none is published. */
  readonly spotCatalogRatio: number;
}

/**
 * Every (region, zone, instance type, mode) the spec allows, priced: on-demand
 * from the catalog's region price, spot at the price EC2 publishes for the zone,
 * else on-demand × the configured ratio. A type without a catalog price in a
 * region is not offered there. Capacity is assumed until a launch says otherwise.
 */
export function buildPools(spec: PoolSpec): Pool[] {
  const pools: Pool[] = [];
  for (const { region, zones } of spec.regions) {
    for (const instanceType of spec.instanceTypes) {
      if (!spec.catalog.isPricedIn(instanceType, region)) continue;
      const onDemand = spec.catalog.onDemandMicroPerHour(instanceType, region);
      const gpusPerInstance = spec.catalog.gpusPerInstance(instanceType);
      for (const zone of zones) {
        for (const mode of spec.modes) {
          const base = { region, zone, instanceType, mode, available: true, gpusPerInstance };
          if (mode === 'on-demand') {
            pools.push({ ...base, priceMicroUsdPerHour: onDemand, priceSource: 'catalog' });
            continue;
          }
          const published = spec.spotPrices.get(region)?.get(spotPriceKey(zone, instanceType));
          pools.push(
            published === undefined
              ? {
                  ...base,
                  priceMicroUsdPerHour: Math.round(onDemand * spec.spotCatalogRatio),
                  priceSource: 'catalog-spot-ratio',
                }
              : { ...base, priceMicroUsdPerHour: published, priceSource: 'ec2-spot-price-history' },
          );
        }
      }
    }
  }
  return pools;
}
