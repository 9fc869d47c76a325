import type { LeaseView, RentalMode } from '../domain/lease';
import { chooseRentalMode } from '../domain/rental-mode';
import { CapacityUnavailableError, type ComputeInstance } from '../ports/compute';
import type { ControlPlane } from './dependencies';
import { toLeaseInstances, unrecordedInstances } from './lease-instances';
import { completeRelease, endInstances } from './release-lease';

export type ProvisionOutcome = 'running' | 'failed' | 'released' | 'not-pending' | 'missing';

/**
 * Reserved GPUs free for new leases. Capacity reservations are not tracked yet,
 * so the mode policy never places a lease on reserved capacity from the worker.
 */
const FREE_RESERVED_GPUS = 0;

/**
 * Launches the lease's instances and marks it RUNNING. Idempotent without help
 * from EC2: instances an earlier delivery launched are found by their lease tag
 * and adopted, so a duplicate message launches nothing twice.
 */
export async function provisionLease(
  deps: ControlPlane,
  tenantId: string,
  leaseId: string,
): Promise<ProvisionOutcome> {
  const lease = await deps.leases.get(tenantId, leaseId);
  if (!lease) return 'missing';
  if (lease.status !== 'PENDING') return 'not-pending';

  const adopted = await unrecordedInstances(deps, leaseId, lease.instances);
  const owned = lease.instances.filter((i) => i.meteringOpen).length + adopted.length;
  const decision = chooseRentalMode({
    workload: lease.workload,
    gpus: lease.gpus,
    requestedMode: lease.requestedMode,
    freeReservedGpus: FREE_RESERVED_GPUS,
  });

  let launched: ComputeInstance[] = [];
  if (owned < lease.gpus) {
    try {
      launched = await launchWithFallback(deps, lease, lease.gpus - owned, decision.mode, decision.fallback);
    } catch (error) {
      if (!(error instanceof CapacityUnavailableError)) throw error;
      return failLease(deps, lease, error.message);
    }
  }
  await deps.leases.recordInstances(await toLeaseInstances(deps, lease, [...adopted, ...launched]));

  if (!(await deps.leases.transition(tenantId, leaseId, ['PENDING'], 'RUNNING', deps.now()))) {
    // Released while we launched: the new instances are owned and now ended with it.
    const outcome = await completeRelease(deps, tenantId, leaseId);
    return outcome === 'released' ? 'released' : 'not-pending';
  }
  deps.metrics.leaseRunning(deps.now() - lease.createdAtMs);
  await deps.events.publish([
    {
      type: 'LeaseRunning',
      tenantId,
      detail: { leaseId, mode: decision.mode, reason: decision.reason, gpus: lease.gpus },
    },
  ]);
  return 'running';
}

async function launchWithFallback(
  deps: ControlPlane,
  lease: LeaseView,
  count: number,
  mode: RentalMode,
  fallback: RentalMode | null,
): Promise<ComputeInstance[]> {
  const request = {
    tenantId: lease.tenantId,
    leaseId: lease.leaseId,
    instanceType: lease.instanceType,
    count,
    clientToken: `${lease.leaseId}-${count}`,
  };
  try {
    return await deps.compute.launch({ ...request, mode });
  } catch (error) {
    if (error instanceof CapacityUnavailableError) deps.metrics.launchFailed(error.mode, error.code);
    if (!(error instanceof CapacityUnavailableError) || fallback === null) throw error;
  }
  try {
    return await deps.compute.launch({
      ...request,
      mode: fallback,
      clientToken: `${request.clientToken}-${fallback}`,
    });
  } catch (error) {
    if (error instanceof CapacityUnavailableError) deps.metrics.launchFailed(error.mode, error.code);
    throw error;
  }
}

/** No capacity anywhere: whatever an earlier attempt launched is ended, then the lease FAILS. */
async function failLease(deps: ControlPlane, lease: LeaseView, reason: string): Promise<ProvisionOutcome> {
  const { tenantId, leaseId } = lease;
  await endInstances(deps, lease);
  if (
    await deps.leases.transition(tenantId, leaseId, ['PENDING'], 'FAILED', deps.now(), {
      failureReason: reason,
    })
  ) {
    if (lease.expiresAtMs !== undefined) await deps.expiry.cancel(leaseId);
    await deps.events.publish([{ type: 'LeaseFailed', tenantId, detail: { leaseId, reason } }]);
  }
  return 'failed';
}
