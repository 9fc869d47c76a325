import { taskDeadlineFields } from '../domain/deadlines/lease-request';
import type { Lease, RentalMode, Workload } from '../domain/lease';
import { expiryOf } from '../domain/lease-expiry';
import type { TaskSpec } from '../domain/tasks/spec';
import { newTask } from '../domain/tasks/state';
import { newLeaseId } from '../ids';
import { assertWithinBudgets } from './budgets/budget-guard';
import type { BudgetControl, ControlPlane, TenantControl } from './dependencies';
import { type PlacementAsk, resolveLeaseShape } from './lease-shape';

export interface CreateLeaseRequest extends PlacementAsk {
  readonly tenantId: string;
  readonly workload: Workload;
  readonly gpus: number;
  readonly instanceType?: string | undefined;
  readonly mode?: RentalMode | undefined;
  readonly project?: string | undefined;
  /** Minutes until the lease is released on its own; the tenant's default when absent. */
  readonly durationMinutes?: number | undefined;
  /** Work to run once the lease runs (validated, secrets under the tenant's prefix). */
  readonly task?: TaskSpec | undefined;
  /** 0-1000, the order of the tenant's own waiting leases (default 500). */
  readonly priority?: number | undefined;
  /** How long it may wait for admission (default 60). */
  readonly maxWaitMinutes?: number | undefined;
}

/** The lease as stored; `eventsLost` when its LeaseRequested event could not be published. */
export type CreatedLease = Lease & { readonly eventsLost?: Error | undefined };

/** What creating a lease needs: the API, and the scaling evaluator that creates members, give it. */
export type LeaseCreationDeps = Pick<
  ControlPlane,
  | 'leases'
  | 'spend'
  | 'commands'
  | 'events'
  | 'catalog'
  | 'region'
  | 'now'
  | 'expiry'
  | 'compute'
  | 'placement'
  | 'images'
> &
  Pick<BudgetControl, 'budgets'> &
  TenantControl;

/**
 * Stores the lease PENDING and queues its provisioning, unless a budget in its
 * scope blocks new leases or its task's deadline does not hold (judged at the
 * injected clock's now, before anything is written). A lease with a lifetime gets its expiry schedule
 * before it is queued. If scheduling or queuing fails the lease is removed
 * again (and its schedule), so a tenant never sees a lease nothing will act on.
 */
export async function createLease(
  deps: LeaseCreationDeps,
  request: CreateLeaseRequest,
  defaultInstanceType: string,
): Promise<CreatedLease> {
  const now = deps.now();
  const deadline = request.task && taskDeadlineFields(request.task, request.mode, now);
  // The shape carries instanceType (the named type, the default, or the GPU model's smallest).
  const shape = await resolveLeaseShape(deps, request, defaultInstanceType);
  const { instanceType } = shape;
  // Two independent reads: side by side, the create waits for the slower, not their sum.
  const [, tenantDefault] = await Promise.all([
    assertWithinBudgets(deps, request.tenantId, request.project),
    request.durationMinutes === undefined
      ? deps.settings.get(request.tenantId).then((settings) => settings.defaultLeaseDurationMinutes)
      : undefined,
  ]);
  const expiresAtMs = expiryOf(now, request.durationMinutes, tenantDefault);
  const lease: Lease = {
    tenantId: request.tenantId,
    leaseId: newLeaseId(now),
    workload: request.workload,
    gpus: request.gpus,
    requestedMode: request.mode,
    project: request.project,
    ...shape,
    status: 'PENDING',
    createdAtMs: now,
    updatedAtMs: now,
    expiresAtMs,
    task: request.task && newTask({ ...request.task, ...deadline }),
    priority: request.priority,
    maxWaitMinutes: request.maxWaitMinutes,
  };
  await deps.leases.create(lease);
  try {
    if (expiresAtMs !== undefined) await deps.expiry.schedule(lease.tenantId, lease.leaseId, expiresAtMs);
    await deps.commands.send({ type: 'provision', tenantId: lease.tenantId, leaseId: lease.leaseId });
  } catch (error) {
    if (expiresAtMs !== undefined) await deps.expiry.cancel(lease.leaseId);
    await deps.leases.discard(lease.tenantId, lease.leaseId);
    throw error;
  }
  // Once its command is queued the lease exists and will run, so a failed publish must not fail the
  // request: the API would answer 500, Powertools would forget the Idempotency-Key, and the client's
  // retry would create (and launch) a second lease. The caller logs and counts the lost event instead.
  const published = deps.events.publish([
    {
      type: 'LeaseRequested',
      tenantId: lease.tenantId,
      detail: {
        leaseId: lease.leaseId,
        workload: lease.workload,
        gpus: lease.gpus,
        instanceType,
        project: lease.project,
        expiresAtMs,
      },
    },
  ]);
  const eventsLost = await published.then(
    () => undefined,
    (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
  );
  return { ...lease, eventsLost };
}
