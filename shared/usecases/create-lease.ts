import type { Lease, RentalMode, Workload } from '../domain/lease';
import { UnsupportedInstanceTypeError } from '../errors';
import { newLeaseId } from '../ids';
import { assertWithinBudgets } from './budgets/budget-guard';
import type { BudgetControl, ControlPlane } from './dependencies';

export interface CreateLeaseRequest {
  readonly tenantId: string;
  readonly workload: Workload;
  readonly gpus: number;
  readonly instanceType?: string | undefined;
  readonly mode?: RentalMode | undefined;
  readonly project?: string | undefined;
}

type Deps = Pick<ControlPlane, 'leases' | 'spend' | 'commands' | 'events' | 'catalog' | 'region' | 'now'> &
  Pick<BudgetControl, 'budgets'>;

/**
 * Stores the lease PENDING and queues its provisioning, unless a budget in its
 * scope blocks new leases. If queuing fails the lease is removed again, so a
 * tenant never sees a lease nothing will act on.
 */
export async function createLease(
  deps: Deps,
  request: CreateLeaseRequest,
  defaultInstanceType: string,
): Promise<Lease> {
  const instanceType = request.instanceType ?? defaultInstanceType;
  const supported = deps.catalog.singleGpuTypes(deps.region);
  if (!supported.includes(instanceType)) throw new UnsupportedInstanceTypeError(instanceType, supported);
  await assertWithinBudgets(deps, request.tenantId, request.project);

  const now = deps.now();
  const lease: Lease = {
    tenantId: request.tenantId,
    leaseId: newLeaseId(now),
    workload: request.workload,
    gpus: request.gpus,
    instanceType,
    requestedMode: request.mode,
    project: request.project,
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
      detail: {
        leaseId: lease.leaseId,
        workload: lease.workload,
        gpus: lease.gpus,
        instanceType,
        project: lease.project,
      },
    },
  ]);
  return lease;
}
