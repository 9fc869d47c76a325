import { isTerminal, type LeaseView } from '../domain/lease';
import { billedTotalMicroUsd } from '../domain/storage-billing';
import { taskReleaseInstant } from '../domain/tasks/state';
import { LeaseNotFoundError } from '../errors';
import { freeAdmission } from './admission/queue';
import type { ControlPlane, InstanceEnding, LeaseEnding } from './dependencies';
import { instanceRef, toLeaseInstances, unrecordedInstances } from './lease-instances';
import { closeInstanceBill } from './metering';
import { freeReservedSlots } from './reserved-slots';

/** How a release is asked for, when gpurent asks on its own. */
export interface ReleaseRequest {
  /** Stored when gpurent releases on its own (an idle policy). */
  readonly reason?: string | undefined;
  /**
   * The caller completes the release itself: the command, held back this
   * long, is only the backstop of a caller that dies midway, and is sent by
   * the request that moved the lease alone (a concurrent mover sends its own).
   */
  readonly commandDelaySeconds?: number | undefined;
}

/**
 * The tenant's side of a release: the lease moves to RELEASING and a release
 * command is queued. Releasing twice, or a lease already ended, is not an error.
 */
export async function requestRelease(
  deps: Pick<ControlPlane, 'leases' | 'commands' | 'now'>,
  tenantId: string,
  leaseId: string,
  { reason, commandDelaySeconds }: ReleaseRequest = {},
): Promise<LeaseView> {
  const lease = await deps.leases.get(tenantId, leaseId);
  if (!lease) throw new LeaseNotFoundError(leaseId);
  if (isTerminal(lease.status) || lease.status === 'RELEASING') return lease;
  const now = deps.now();
  const moved = await deps.leases.transition(
    tenantId,
    leaseId,
    ['PENDING', 'QUEUED', 'RUNNING', 'INTERRUPTED'],
    'RELEASING',
    now,
    reason === undefined
      ? { releaseRequestedAtMs: now }
      : { releaseRequestedAtMs: now, releaseReason: reason },
  );
  if (commandDelaySeconds === undefined)
    // A concurrent request or the provisioner moved it first; the command is idempotent either way.
    await deps.commands.send({ type: 'release', tenantId, leaseId });
  else if (moved)
    await deps.commands.send({ type: 'release', tenantId, leaseId }, { delaySeconds: commandDelaySeconds });
  if (moved)
    return {
      ...lease,
      status: 'RELEASING',
      updatedAtMs: now,
      releaseRequestedAtMs: now,
      releaseReason: reason,
    };
  return (await deps.leases.get(tenantId, leaseId)) ?? lease;
}

/**
 * Terminates every live instance of the lease (also ones an interrupted
 * provisioning left unrecorded, which are recorded first so they are billed)
 * and closes each bill at the termination instant, which is stamped once
 * (`atMs` when given: a task's end that released the lease).
 */
export async function endInstances(deps: InstanceEnding, lease: LeaseView, atMs?: number): Promise<number> {
  const { tenantId, leaseId } = lease;
  const strays = await unrecordedInstances(deps, leaseId, lease.instances);
  if (strays.length > 0) await deps.leases.recordInstances(await toLeaseInstances(deps, lease, strays));
  const live = lease.instances.filter((i) => i.meteringOpen).map((i) => instanceRef(deps, i));
  await deps.compute.terminate([...live, ...strays]);
  const endedAtMs = await deps.leases.recordTermination(tenantId, leaseId, atMs ?? deps.now());
  const open = [
    ...lease.instances.filter((i) => i.meteringOpen),
    ...strays.map((i) => ({ ...i, tenantId, leaseId })),
  ];
  // From here on a metering tick charges up to the termination instant and no further.
  await deps.leases.stampInstanceEnds(open, endedAtMs);

  const recorded = (await deps.leases.get(tenantId, leaseId))?.instances ?? [];
  for (const instance of recorded.filter((i) => i.meteringOpen)) {
    await closeInstanceBill(deps, instance, endedAtMs, async () =>
      (await deps.leases.get(tenantId, leaseId))?.instances.find((i) => i.instanceId === instance.instanceId),
    );
  }
  // Reserved slots free once their instances are gone and billed.
  await freeReservedSlots(deps, leaseId);
  return endedAtMs;
}

export type ReleaseOutcome = 'released' | 'not-releasing' | 'missing';

/** The worker's side: ends the lease's instances, then marks it RELEASED. Safe to run again. */
export async function completeRelease(
  deps: LeaseEnding,
  tenantId: string,
  leaseId: string,
): Promise<ReleaseOutcome> {
  const lease = await deps.leases.get(tenantId, leaseId);
  if (!lease) return 'missing';
  if (lease.status !== 'RELEASING') return 'not-releasing';

  // Released by its task's end: the bill closes when the task ended.
  const endedAtMs = await endInstances(deps, lease, taskReleaseInstant(lease.task));
  if (await deps.leases.transition(tenantId, leaseId, ['RELEASING'], 'RELEASED', deps.now())) {
    const final = await deps.leases.get(tenantId, leaseId);
    const totalMicroUsd = (final?.instances ?? []).reduce((sum, i) => sum + billedTotalMicroUsd(i), 0);
    // Released before its time (or by it): the expiry has nothing left to do.
    if (lease.expiresAtMs !== undefined) await deps.expiry.cancel(leaseId);
    await deps.events.publish([
      { type: 'LeaseReleased', tenantId, detail: { leaseId, totalMicroUsd, endedAtMs } },
    ]);
  }
  await freeAdmission(deps, leaseId);
  return 'released';
}

/**
 * An expiry schedule fired: the lease is released the way a tenant's DELETE
 * releases it. A lease already ended or releasing is left alone.
 */
export async function expireLease(
  deps: Pick<ControlPlane, 'leases' | 'commands' | 'now'>,
  tenantId: string,
  leaseId: string,
): Promise<'expired' | 'already-ended' | 'missing'> {
  const lease = await deps.leases.get(tenantId, leaseId);
  if (!lease) return 'missing';
  if (isTerminal(lease.status) || lease.status === 'RELEASING') return 'already-ended';
  await requestRelease(deps, tenantId, leaseId);
  return 'expired';
}
