import type { WaitingLease } from '../domain/admission/admission-pass';
import type { AdmissionClaim, CapacityPool, PoolLimit, TenantAdmission } from '../domain/admission/claims';
import type { CompletedLease, DurationSamples } from '../domain/admission/duration-history';
import type { Quota } from '../domain/admission/quota';
import type { RunningLease } from '../domain/admission/wait-estimate';

/** What one admission pass reads: the queue, every tenant's use and quota, the known capacity. */
export interface AdmissionSnapshot {
  readonly queue: readonly WaitingLease[];
  readonly tenants: Readonly<Record<string, TenantAdmission>>;
  readonly pools: readonly CapacityPool[];
}

export interface AdmitOutcome {
  /** Claims committed, each exactly once across every pass. */
  readonly committed: readonly AdmissionClaim[];
  /**
   * True when a write found the state moved since the snapshot (another pass,
   * a quota or capacity change): the rest was not written; read again and retry.
   */
  readonly conflicted: boolean;
}

export type { PoolLimit } from '../domain/admission/claims';

/**
 * Queued leases, tenants' use against their quotas and the known fleet
 * capacity. Every change of use is conditional on what it was computed
 * from, so overlapping passes never admit a lease twice or hand out capacity
 * or quota twice.
 */
export interface AdmissionStore {
  /** Puts the lease in the queue; false when the lease is already known (queued, admitted or ended). */
  enqueue(lease: WaitingLease): Promise<boolean>;
  snapshot(): Promise<AdmissionSnapshot>;
  /**
   * Commits the claims (computed from `snapshot`, quotas falling back to
   * `defaultQuota`), in order. A claim whose lease left the queue meanwhile
   * (cancelled, timed out, admitted by another pass) is not committed and
   * holds nothing. Counters may be reserved before leases are marked: a pass
   * that stops in between leaves them for `recover`.
   */
  admit(
    claims: readonly AdmissionClaim[],
    snapshot: AdmissionSnapshot,
    defaultQuota: Quota,
  ): Promise<AdmitOutcome>;
  /**
   * Settles what passes reserved before `reservedBeforeMs` and did not finish
   * (they stopped between reserving and marking): their leases still queued
   * are admitted, the others' reservations given back. Returns the claims
   * admitted by those passes, for hand-over; settling twice admits nothing twice.
   */
  recover(reservedBeforeMs: number): Promise<readonly AdmissionClaim[]>;
  /** Gives back what an admitted lease holds, once; a lease still queued leaves the queue. Undefined when it held nothing. */
  release(leaseId: string): Promise<AdmissionClaim | undefined>;
  /** Takes a lease that waited its maxWaitMinutes out of the queue; false when a pass admitted it first. */
  timeOut(leaseId: string): Promise<boolean>;
  putQuota(tenantId: string, quota: Quota): Promise<void>;
  tenant(tenantId: string): Promise<TenantAdmission | undefined>;
  putPoolLimit(pool: PoolLimit): Promise<void>;
  /** The known capacity pools, with what admission handed out of each. */
  pools(): Promise<CapacityPool[]>;
  /** Every admitted lease's claim not yet released: what the pools' `used` counts. */
  claims(): Promise<AdmissionClaim[]>;
  /** Where the lease stands with admission; undefined when it never asked. */
  status(leaseId: string): Promise<AdmissionStatus | undefined>;
  /** The lease as it joined the queue, and where it stands now; undefined when it never asked. */
  entry(
    leaseId: string,
  ): Promise<{ readonly status: AdmissionStatus; readonly lease: WaitingLease } | undefined>;
  /** What an ADMITTED lease holds; undefined when it is not admitted (now). */
  claim(leaseId: string): Promise<AdmissionClaim | undefined>;
  /** Every admitted lease not yet released, with what it holds: the releases a wait estimate foresees. */
  running(): Promise<RunningLease[]>;
  /**
   * EC2 refused an admitted lease: what it holds is given back and it waits
   * again, sitting out passes until `refused.atMs`. False when it was not admitted.
   */
  requeue(leaseId: string, refused: NonNullable<WaitingLease['refused']>): Promise<boolean>;
  /**
   * Records how long a released lease held its admission under its tenant and
   * workload, keeping the newest HISTORY_WINDOW of each. Once per lease: false
   * when it was recorded already (or admission never knew it).
   */
  recordDuration(completed: CompletedLease & { readonly leaseId: string }): Promise<boolean>;
  /** The recorded durations of every tenant and workload: the history a wait estimate reads. */
  durations(): Promise<DurationSamples>;
}

export type AdmissionStatus = 'QUEUED' | 'ADMITTED' | 'RELEASED' | 'TIMED_OUT';
