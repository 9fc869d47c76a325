import type { Lease, LeaseInstance } from '../domain/lease';
import type { MicroUsd } from '../domain/money';
import { poolKey } from '../domain/placement';
import { type ComputeInstance, ROOT_VOLUME_GIB } from '../ports/compute';
import type { ControlPlane } from './dependencies';
import { livePools } from './pools';

type Deps = Pick<ControlPlane, 'catalog' | 'compute' | 'placement' | 'commitments' | 'now'>;

/**
 * The hourly price an instance is metered at, fixed at launch: its pool's price
 * now (spot as EC2 publishes it in the zone, on-demand from the catalog), the
 * commitment's own rate for an instance on a commitment (the catalog's reserved
 * rate for a reserved instance on none).
 */
export async function priceAtLaunch(deps: Deps, instance: ComputeInstance): Promise<MicroUsd> {
  if (instance.mode === 'reserved') {
    const commitment = instance.commitmentId ? await deps.commitments.get(instance.commitmentId) : undefined;
    return (
      commitment?.hourlyMicroUsd ?? deps.catalog.reservedMicroPerHour(instance.instanceType, instance.region)
    );
  }
  const pools = await livePools(deps, {
    instanceTypes: [instance.instanceType],
    regions: [instance.region],
    modes: [instance.mode],
    nowMs: deps.now(),
  });
  const key = poolKey(instance);
  const pool = pools.find((candidate) => poolKey(candidate) === key);
  return (
    pool?.priceMicroUsdPerHour ?? deps.catalog.onDemandMicroPerHour(instance.instanceType, instance.region)
  );
}

/**
 * Turns EC2 instances into the lease's records, with an empty metering
 * checkpoint; `price` gives an instance's price when the caller knows it (the
 * pool it was launched into), else it is looked up as at launch. Each record
 * carries its root volume and the region's gp3 price, for metering its storage.
 */
export function toLeaseInstances(
  deps: Deps,
  lease: Lease,
  instances: readonly ComputeInstance[],
  price: (instance: ComputeInstance) => MicroUsd | undefined = () => undefined,
): Promise<LeaseInstance[]> {
  return Promise.all(
    instances.map(async (instance) => ({
      tenantId: lease.tenantId,
      leaseId: lease.leaseId,
      instanceId: instance.instanceId,
      instanceType: instance.instanceType,
      mode: instance.mode,
      project: lease.project,
      region: instance.region,
      commitmentId: instance.commitmentId,
      zone: instance.zone,
      priceMicroUsdPerHour: price(instance) ?? (await priceAtLaunch(deps, instance)),
      launchedAtMs: instance.launchedAtMs,
      meteredUntilMs: instance.launchedAtMs,
      billedSeconds: 0,
      billedMicroUsd: 0,
      meteringOpen: true,
      ...(deps.catalog.storage && {
        volumeGb: ROOT_VOLUME_GIB,
        storageMicroUsdPerGbMonth: deps.catalog.storage.ebsMicroPerGbMonth(instance.region),
      }),
    })),
  );
}

/** Live EC2 instances of the lease that the table does not know yet. */
export async function unrecordedInstances(
  deps: Pick<ControlPlane, 'compute'>,
  leaseId: string,
  recorded: readonly LeaseInstance[],
): Promise<ComputeInstance[]> {
  const known = new Set(recorded.map((instance) => instance.instanceId));
  return (await deps.compute.instancesOfLease(leaseId)).filter((instance) => !known.has(instance.instanceId));
}

/** Where a recorded instance lives (records from before regions live in the home region). */
export function instanceRef(deps: Pick<ControlPlane, 'region'>, instance: LeaseInstance) {
  return { instanceId: instance.instanceId, region: instance.region ?? deps.region };
}

/** The lease's instances that still hold GPUs for it: metered, and not warned of an interruption. */
export function heldInstances(instances: readonly LeaseInstance[]): LeaseInstance[] {
  return instances.filter((i) => i.meteringOpen && i.interruptedAtMs === undefined);
}
