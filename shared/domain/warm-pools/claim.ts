import type { RentalMode } from '../lease';
import type { WarmMachine } from './machine';

/** What a lease would launch: the warm machines that may stand in for it. */
export interface WarmDemand {
  readonly mode: RentalMode;
  readonly instanceTypes: readonly string[];
  readonly regions: readonly string[];
  /** The `name:version` the lease would launch from; undefined: no image version, so no warm machine. */
  readonly image: string | undefined;
  /** Instances wanted; warm serves a lease whole or not at all. */
  readonly instances: (instanceType: string) => number;
}

/**
 * The claim rule: only on-demand leases take warm machines (spot and reserved
 * launch as they are priced), only ready (stopped) machines of an instance
 * type, region and image version the lease would launch, and only when one
 * pool's type has enough ready machines for the whole lease. Oldest ready first.
 * Returns the candidates of the first type that can serve, in claim order, or none.
 */
export function warmCandidates(
  machines: readonly WarmMachine[],
  demand: WarmDemand,
): { instanceType: string; needed: number; candidates: WarmMachine[] } | undefined {
  if (demand.mode !== 'on-demand' || demand.image === undefined) return undefined;
  for (const instanceType of demand.instanceTypes) {
    const needed = demand.instances(instanceType);
    if (needed < 1) continue;
    const candidates = machines
      .filter(
        (m) =>
          m.state === 'ready' &&
          m.instanceType === instanceType &&
          m.imageVersion === demand.image &&
          demand.regions.includes(m.region),
      )
      .sort((a, b) => (a.readyAtMs ?? a.launchedAtMs) - (b.readyAtMs ?? b.launchedAtMs));
    if (candidates.length >= needed) return { instanceType, needed, candidates };
  }
  return undefined;
}
