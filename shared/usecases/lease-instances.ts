import type { Lease, LeaseInstance, RentalMode } from '../domain/lease';
import type { ComputeInstance } from '../ports/compute';
import type { ControlPlane } from './dependencies';

type Deps = Pick<ControlPlane, 'catalog' | 'compute' | 'region'>;

/**
 * The hourly price an instance is metered at, fixed at launch. Spot uses the
 * zone's published price at that moment (on-demand when EC2 publishes none).
 */
export async function priceAtLaunch(
  deps: Deps,
  instanceType: string,
  mode: RentalMode,
  zone: string,
): Promise<number> {
  switch (mode) {
    case 'on-demand':
      return deps.catalog.onDemandMicroPerHour(instanceType, deps.region);
    case 'reserved':
      return deps.catalog.reservedMicroPerHour(instanceType, deps.region);
    case 'spot':
      return (
        (await deps.compute.spotPriceMicroPerHour(instanceType, zone)) ??
        deps.catalog.onDemandMicroPerHour(instanceType, deps.region)
      );
  }
}

/** Turns EC2 instances into the lease's records, with an empty metering checkpoint. */
export function toLeaseInstances(
  deps: Deps,
  lease: Lease,
  instances: readonly ComputeInstance[],
): Promise<LeaseInstance[]> {
  return Promise.all(
    instances.map(async (instance) => ({
      tenantId: lease.tenantId,
      leaseId: lease.leaseId,
      instanceId: instance.instanceId,
      instanceType: instance.instanceType,
      mode: instance.mode,
      project: lease.project,
      zone: instance.zone,
      priceMicroUsdPerHour: await priceAtLaunch(deps, instance.instanceType, instance.mode, instance.zone),
      launchedAtMs: instance.launchedAtMs,
      meteredUntilMs: instance.launchedAtMs,
      billedSeconds: 0,
      billedMicroUsd: 0,
      meteringOpen: true,
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
