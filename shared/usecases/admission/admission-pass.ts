import {
  type AdmissionResult,
  admissionPass,
  type QueuedLease,
  type WaitingLease,
} from '../../domain/admission/admission-pass';
import type { VcpuCatalog } from '../../domain/admission/capacity';
import { type AdmissionClaim, capacityOfPools, claimOf, poolKey } from '../../domain/admission/claims';
import { splitTimedOut } from '../../domain/admission/queue-timeout';
import type { Quota } from '../../domain/admission/quota';
import type { TenantUsage } from '../../domain/admission/tenant-ledger';
import type { AdmissionSnapshot, AdmissionStore } from '../../ports/admission-store';
import { gateReadsOf } from './gate-reads';

export interface AdmissionDeps {
  readonly admission: AdmissionStore;
  readonly catalog: VcpuCatalog;
  readonly defaultQuota: Quota;
  readonly now: () => number;
}

/**
 * Read, decide, commit: a round whose commit found the state moved (an
 * overlapping pass, a quota change) is read and decided again. Rounds are
 * bounded so a pass never spins; the next event or the schedule resumes.
 */
export const MAX_ADMISSION_ROUNDS = 8;

/**
 * A pass reserves its admissions' counters, then marks the leases; one whose
 * reservations are older than this stopped in between, and the next wide pass
 * settles them. Longer than any function that runs passes lasts (their
 * timeouts are 2 minutes at most), so a live pass finishes its own; settling
 * a live pass's reservations would still be correct, only wasted work.
 */
export const RESERVATION_RECOVERY_AFTER_MS = 5 * 60_000;

export interface AdmissionRun {
  readonly admitted: readonly AdmissionClaim[];
  readonly timedOut: readonly WaitingLease[];
  /** What the last round left waiting, in the pass's order. */
  readonly queued: readonly QueuedLease[];
  /** The state the last round decided on. */
  readonly snapshot: AdmissionSnapshot;
  /**
   * True when the last round wrote no admission (a gate whose own lease does
   * not fit, a pass with nothing to admit): `snapshot` and `queued` are then
   * still the state after the pass, bar what moved since the read.
   */
  readonly current: boolean;
  /** False when every round conflicted: what is left waits for the next pass. */
  readonly settled: boolean;
}

/**
 * Which of the leases a pass finds admissible it commits. A provisioner's
 * gate commits only its own lease: the others it finds admissible have gates
 * of their own running, or are admitted by the pass of the release, quota
 * change or schedule that made room for them. Many gates at once then each
 * write one lease, instead of all racing to write the same ones.
 */
export type AdmissionScope =
  | {
      readonly only: string;
      /** The gate's lease, just enqueued: the first round decides on the container's shared read (gate-reads.ts). */
      readonly joined?: WaitingLease;
    }
  | 'all';

/** One admission pass over the stored queue, with the one policy of `shared/domain/admission`. */
export async function runAdmissionPass(
  deps: AdmissionDeps,
  scope: AdmissionScope = 'all',
): Promise<AdmissionRun> {
  // Only a wide pass hands over what it admits; a gate leaves the settling to one.
  const gateReads = gateReadsOf(deps.admission, deps.now);
  if (scope === 'all') gateReads.forget();
  const admitted: AdmissionClaim[] =
    scope === 'all' ? [...(await deps.admission.recover(deps.now() - RESERVATION_RECOVERY_AFTER_MS))] : [];
  const timedOut: WaitingLease[] = [];
  for (let round = 1; ; round++) {
    const nowMs = deps.now();
    const joined = scope === 'all' || round > 1 ? undefined : scope.joined;
    const snapshot = joined ? await gateReads.snapshot(joined) : await deps.admission.snapshot();
    const split = splitTimedOut(snapshot.queue, nowMs);
    for (const lease of split.timedOut) {
      if (await deps.admission.timeOut(lease.leaseId)) {
        timedOut.push(lease);
        gateReads.forget();
      }
    }
    const pass = decideAdmissions(deps, snapshot, split.waiting, nowMs);
    const pools = new Set(snapshot.pools.map(poolKey));
    const committing =
      scope === 'all' ? pass.admitted : pass.admitted.filter(({ lease }) => lease.leaseId === scope.only);
    const claims = committing.map((lease) => ({
      ...claimOf(lease, pools, deps.catalog),
      admittedAtMs: nowMs,
    }));
    const outcome = await deps.admission.admit(claims, snapshot, deps.defaultQuota);
    admitted.push(...outcome.committed);
    if (outcome.conflicted || outcome.committed.length > 0) gateReads.forget();
    if (!outcome.conflicted || round === MAX_ADMISSION_ROUNDS) {
      return {
        admitted,
        timedOut,
        queued: pass.queued,
        snapshot,
        current: claims.length === 0,
        settled: !outcome.conflicted,
      };
    }
  }
}

/**
 * The pure pass over the waiting leases, except those EC2 refused lately: they
 * sit out until their refusal's back-off ends (admitting them again at once
 * would only be refused again) and are listed last, waiting for that reason.
 */
export function decideAdmissions(
  deps: Pick<AdmissionDeps, 'catalog' | 'defaultQuota'>,
  snapshot: AdmissionSnapshot,
  waiting: readonly WaitingLease[],
  nowMs: number,
): AdmissionResult {
  const sittingOut = waiting.filter((lease) => (lease.refused?.atMs ?? 0) > nowMs);
  const pass = admissionPass({
    nowMs,
    queue: waiting.filter((lease) => !sittingOut.includes(lease)),
    usage: usageOf(snapshot),
    quotas: quotasOf(snapshot),
    defaultQuota: deps.defaultQuota,
    capacity: capacityOfPools(snapshot.pools),
    catalog: deps.catalog,
  });
  const turns = pass.admitted.length + pass.queued.length;
  return {
    admitted: pass.admitted,
    queued: [
      ...pass.queued,
      ...sittingOut.map((lease, i) => ({
        lease,
        reason: lease.refused?.reason ?? ('capacity' as const),
        position: pass.queued.length + i + 1,
        holding: false,
        turn: turns + i,
      })),
    ],
  };
}

export function usageOf(snapshot: AdmissionSnapshot): Record<string, TenantUsage> {
  return Object.fromEntries(Object.values(snapshot.tenants).map((tenant) => [tenant.tenantId, tenant.usage]));
}

export function quotasOf(snapshot: AdmissionSnapshot): Record<string, Quota> {
  return Object.fromEntries(
    Object.values(snapshot.tenants).flatMap((tenant) =>
      tenant.quota ? [[tenant.tenantId, tenant.quota]] : [],
    ),
  );
}
