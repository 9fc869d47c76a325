import type { Lease, RentalMode, Workload } from '../domain/lease';
import { newLeaseId } from '../ids';
import type { ControlPlane } from './dependencies';
import { type PlacementAsk, resolveLeaseShape } from './lease-shape';

export interface CreateLeaseRequest extends PlacementAsk {
  readonly tenantId: string;
  readonly workload: Workload;
  readonly gpus: number;
  readonly instanceType?: string | undefined;
  readonly mode?: RentalMode | undefined;
}

type Deps = Pick<
  ControlPlane,
  'leases' | 'commands' | 'events' | 'catalog' | 'region' | 'now' | 'compute' | 'placement' | 'images'
>;

/**
 * Stores the lease PENDING and queues its provisioning. If queuing fails the
 * lease is removed again, so a tenant never sees a lease nothing will act on.
 */
export async function createLease(
  deps: Deps,
  request: CreateLeaseRequest,
  defaultInstanceType: string,
): Promise<Lease> {
  // The shape carries instanceType (the named type, the default, or the GPU model's smallest).
  const shape = await resolveLeaseShape(deps, request, defaultInstanceType);
  const { instanceType } = shape;

  const now = deps.now();
  const lease: Lease = {
    tenantId: request.tenantId,
    leaseId: newLeaseId(now),
    workload: request.workload,
    gpus: request.gpus,
    requestedMode: request.mode,
    ...shape,
    status: 'PENDING',
    createdAtMs: now,
    updatedAtMs: now,
  };
  await deps.leases.create(lease);
  try {
    await deps.commands.send({ type: 'provision', tenantId: lease.tenantId, leaseId: lease.leaseId });
  } catch (error) {
    await deps.leases.discard(lease.tenantId, lease.leaseId);
    throw error;
  }
  await deps.events.publish([
    {
      type: 'LeaseRequested',
      tenantId: lease.tenantId,
      detail: { leaseId: lease.leaseId, workload: lease.workload, gpus: lease.gpus, instanceType },
    },
  ]);
  return lease;
}
