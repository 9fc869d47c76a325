import { onDemandOffers, spotPoolSignals } from '../domain/deadlines/pool-signals';
import type { DeadlineMarketSignals } from '../ports/deadline-jobs';
import type { ControlPlane } from './dependencies';
import { livePools } from './pools';

/**
 * The market as placement sees it, for the deadline policy: the pools
 * `livePools` lists for the lease's type and regions (EC2's spot prices, the
 * catalog's on-demand ones, the container's unavailable-offerings marks),
 * with the lease's own interruptions added per pool.
 */
export function liveMarketSignals(
  deps: Pick<ControlPlane, 'catalog' | 'compute' | 'placement'>,
): DeadlineMarketSignals {
  const pools = (
    query: Parameters<DeadlineMarketSignals['spotPools']>[0],
    nowMs: number,
    mode: 'spot' | 'on-demand',
  ) => livePools(deps, { instanceTypes: [query.instanceType], regions: query.regions, modes: [mode], nowMs });
  return {
    spotPools: async (query, nowMs) => spotPoolSignals(await pools(query, nowMs, 'spot'), query, nowMs),
    onDemandOffers: async (query, nowMs) => onDemandOffers(await pools(query, nowMs, 'on-demand'), query),
  };
}
