import type { AdmissionClaim } from '../../domain/admission/claims';
import type { AdmissionStore } from '../../ports/admission-store';

/**
 * A released admission's hold, from its admission to now, joins its tenant's
 * and workload's history: the durations the wait estimates of the leases
 * behind it read (`remainingDuration`). Every release counts, a lease that
 * failed too: the estimate foresees when what admission gave out comes back,
 * however the lease ended. Nothing when the lease was never admitted.
 */
export async function recordHeldDuration(
  deps: { readonly admission: Pick<AdmissionStore, 'recordDuration'>; readonly now: () => number },
  claim: AdmissionClaim | undefined,
): Promise<void> {
  if (claim?.admittedAtMs === undefined) return;
  await deps.admission.recordDuration({
    leaseId: claim.leaseId,
    tenantId: claim.tenantId,
    workload: claim.workload,
    durationMs: Math.max(0, deps.now() - claim.admittedAtMs),
  });
}
