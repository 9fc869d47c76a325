import type {
  Lease,
  LeaseInstance,
  LeasePlacement,
  LeaseQueueState,
  LeaseStatus,
  LeaseView,
  QueueEnding,
} from '../domain/lease';
import type { TaskState } from '../domain/tasks/state';
import type { InstanceRef } from './metering-work';

export interface LeasePage {
  readonly leases: readonly LeaseView[];
  /** Opaque cursor for the next page, absent on the last page. */
  readonly nextCursor?: string | undefined;
}

export interface TransitionChanges {
  readonly releaseRequestedAtMs?: number;
  readonly releaseReason?: string;
  readonly failureReason?: string;
  readonly placement?: LeasePlacement;
  /** The type the lease now runs on (a GPU-model lease is stored with a provisional one). */
  readonly instanceType?: string;
  /**
   * Where a QUEUED lease stands (shown only while it is QUEUED). Its reason is
   * also added to `queueHistory` when it is not the one stored, or the lease was not QUEUED.
   */
  readonly queue?: LeaseQueueState;
  /** Its wait for admission ends: added to `queueHistory`, with when it joined the queue and where. */
  readonly queueEnd?: QueueEnd;
}

export interface QueueEnd {
  readonly state: QueueEnding;
  readonly queuedAtMs: number;
  /** The region of its first launch candidate, when it had one. */
  readonly region?: string | undefined;
}

/** A status a lease is listed under in the open-leases index (every status but RELEASED and FAILED). */
export type OpenLeaseStatus = Exclude<LeaseStatus, 'RELEASED' | 'FAILED'>;

export interface LeaseRef {
  readonly tenantId: string;
  readonly leaseId: string;
}

/** Leases and the instances they own, always addressed within one tenant. */
export interface LeaseRepository {
  /** Stores a new lease; fails if the id is taken. */
  create(lease: Lease): Promise<void>;
  /** Removes a lease that was never announced (compensation when queuing fails). */
  discard(tenantId: string, leaseId: string): Promise<void>;
  get(tenantId: string, leaseId: string): Promise<LeaseView | undefined>;
  list(tenantId: string, limit: number, cursor?: string): Promise<LeasePage>;
  /**
   * The tenant's leases created in [fromMs, toMs), with their instances: lease
   * ids sort by creation time, so this is one key range (not a read per lease).
   */
  listCreatedBetween(tenantId: string, fromMs: number, toMs: number): Promise<LeaseView[]>;
  /**
   * Moves a lease to `to` only if it is in one of `from`. Returns false when the
   * lease was elsewhere, so concurrent workers never both act on one change.
   */
  transition(
    tenantId: string,
    leaseId: string,
    from: readonly LeaseStatus[],
    to: LeaseStatus,
    atMs: number,
    changes?: TransitionChanges,
  ): Promise<boolean>;
  /**
   * Stamps the instant the lease's instances were terminated, once: a retried
   * release reads back the first stamp, so the bill end never drifts later.
   */
  recordTermination(tenantId: string, leaseId: string, atMs: number): Promise<number>;
  /**
   * Stamps the instant the instances ended, once (a later stamp keeps the first):
   * from then on metering charges them up to that instant and no further.
   */
  stampInstanceEnds(instances: readonly InstanceRef[], endedAtMs: number): Promise<void>;
  /** Records instances a lease owns; an instance already recorded is left as it is. */
  recordInstances(instances: readonly LeaseInstance[]): Promise<void>;
  /**
   * Stamps an instance event once (`interruptedAtMs` or `runningConfirmedAtMs`):
   * false when the instance is unknown or already carries the stamp.
   */
  stampInstance(
    instance: Pick<LeaseInstance, 'tenantId' | 'leaseId' | 'instanceId'>,
    stamp: 'interruptedAtMs' | 'runningConfirmedAtMs',
    atMs: number,
  ): Promise<boolean>;
  /**
   * Replaces the lease's task only if it is still at `task.revision - 1`:
   * false when another writer advanced it first (the caller reads again).
   */
  saveTask(tenantId: string, leaseId: string, task: TaskState): Promise<boolean>;
  /**
   * Up to `limit` leases now in `status` (one not yet ended), across tenants,
   * oldest lease first: the reconciler's walk of leases no live instance leads to.
   */
  openLeases(status: OpenLeaseStatus, limit: number): Promise<LeaseRef[]>;
  /**
   * How many of the tenant's leases wait to start (PENDING or QUEUED), counted
   * up to `upTo` and no further: the read is bounded by `upTo`, not by the
   * tenant's history. Eventually consistent: a lease created or moved an
   * instant ago may not be counted yet.
   */
  countWaiting(tenantId: string, upTo: number): Promise<number>;
  /** Every instance whose bill is still open, across tenants (the metering work list). */
  openInstances(): Promise<LeaseInstance[]>;
  /** Instance records by key, as stored now (missing ones are left out). */
  instancesByRef(refs: readonly InstanceRef[]): Promise<LeaseInstance[]>;
  /** The open instances of one tenant (what its running leases cost per hour now). */
  openInstancesOf(tenantId: string): Promise<LeaseInstance[]>;
}
