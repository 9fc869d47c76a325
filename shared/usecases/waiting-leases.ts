import type { TenantLimits } from '../domain/tenant-limits';
import { WaitingLeasesCapError } from '../limit-errors';
import type { LeaseRepository } from '../ports/lease-repository';

/**
 * Refuses a new lease (429 WAITING_LEASES_CAP_REACHED, naming the cap and how
 * many wait) when the tenant already has `maxWaitingLeases` leases waiting to
 * start (PENDING or QUEUED), before anything of the lease is written. One
 * query of the tenant's partition of the waiting-leases index, reading at most
 * the cap's keys.
 *
 * Not a lock: creates racing each other (or a lease counted a moment before
 * the index shows it) may pass the cap by the number in flight. The cap keeps
 * one tenant from flooding the shared admission queue and the reconciler's
 * walk with leases; it is not an invariant anything relies on.
 */
export async function assertBelowWaitingLeasesCap(
  deps: { readonly leases: Pick<LeaseRepository, 'countWaiting'> },
  tenantId: string,
  limits: Pick<TenantLimits, 'maxWaitingLeases'>,
): Promise<void> {
  const cap = limits.maxWaitingLeases;
  const waiting = cap > 0 ? await deps.leases.countWaiting(tenantId, cap) : 0;
  if (waiting >= cap) throw new WaitingLeasesCapError(tenantId, cap, waiting);
}
