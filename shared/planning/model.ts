import { priceCatalog } from '../catalog';
import type { PriceCatalog } from '../domain/catalog';
import type { MicroUsd } from '../domain/money';
import type { Pool } from '../domain/placement';
import { SPOT_TRACE_INSTANCE_TYPE } from './spot-market';

/** Every replayed GPU is one of these: the only type with spot traces (1× V100). */
export const REPLAY_INSTANCE_TYPE = SPOT_TRACE_INSTANCE_TYPE;

/** Reserved capacity is committed in the region the spot traces start with. */
export const RESERVED_REGION = 'us-east-1';

export interface ReplayPrices {
  /** us-east-1 on-demand rate, used for the all-on-demand baseline and the hindsight's on-demand hours. */
  readonly onDemandMicroUsdPerHour: MicroUsd;
  readonly reservedMicroUsdPerHour: MicroUsd;
  /** Whether the reserved rate is the catalog's median-ratio stand-in rather than a published rate. */
  readonly reservedIsStandIn: boolean;
}

export function replayPrices(catalog: PriceCatalog = priceCatalog): ReplayPrices {
  const published = catalog.offering(REPLAY_INSTANCE_TYPE)?.pricing[RESERVED_REGION]?.reserved;
  return {
    onDemandMicroUsdPerHour: catalog.onDemandMicroPerHour(REPLAY_INSTANCE_TYPE, RESERVED_REGION),
    reservedMicroUsdPerHour: catalog.reservedMicroPerHour(REPLAY_INSTANCE_TYPE, RESERVED_REGION),
    reservedIsStandIn: published === undefined,
  };
}

/** On-demand in every zone the spot traces cover, at the catalog price of its region; it never runs out. */
export function onDemandPools(
  zones: readonly { readonly zone: string; readonly region: string }[],
  catalog: PriceCatalog = priceCatalog,
): Pool[] {
  return zones.map(({ zone, region }) => ({
    region,
    zone,
    instanceType: REPLAY_INSTANCE_TYPE,
    mode: 'on-demand',
    priceMicroUsdPerHour: catalog.onDemandMicroPerHour(REPLAY_INSTANCE_TYPE, region),
    available: true,
  }));
}

/** The reserved commitment as a pool: it has room while enough committed GPUs are free. */
export function reservedPool(prices: ReplayPrices, hasRoom: boolean): Pool {
  return {
    region: RESERVED_REGION,
    zone: RESERVED_REGION,
    instanceType: REPLAY_INSTANCE_TYPE,
    mode: 'reserved',
    priceMicroUsdPerHour: prices.reservedMicroUsdPerHour,
    available: hasRoom,
  };
}
