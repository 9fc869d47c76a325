import type { QueueReason } from './admission/admission-pass';
import type { EstimateBasis } from './admission/wait-estimate';
import type { StoredDecision } from './deadlines/policy-input';
import type { TaskState } from './tasks/state';

/** Vocabulary shared by the API, the workers, the planner and the simulator. */
export const WORKLOADS = ['training', 'inference', 'batch'] as const;
export type Workload = (typeof WORKLOADS)[number];

export const RENTAL_MODES = ['on-demand', 'reserved', 'spot'] as const;
export type RentalMode = (typeof RENTAL_MODES)[number];

/** One lease may hold up to eight single-GPU instances (one p-class node's worth). */
export const MAX_GPUS_PER_LEASE = 8;

/**
 * A lease may be given from one minute to thirty days to live; it is released when that runs out.
 * Here, beside the vocabulary, so the CLI checks the same limits without bundling zod.
 */
export const MIN_LEASE_MINUTES = 1;
export const MAX_LEASE_MINUTES = 30 * 24 * 60;

/**
 * PENDING: stored, waiting for the provisioner. QUEUED: waiting for admission (its tenant's
 * quota, capacity or the account's EC2 quota), see `queue`. RUNNING: instances launched and owned.
 * RELEASING: the tenant asked to stop; billing ends at `releaseRequestedAt`.
 * RELEASED: every instance terminated and billed. FAILED: nothing could be launched.
 * INTERRUPTED: spot capacity of the lease is being reclaimed; a replacement is queued.
 */
export const LEASE_STATUSES = [
  'PENDING',
  'QUEUED',
  'RUNNING',
  'RELEASING',
  'RELEASED',
  'FAILED',
  'INTERRUPTED',
] as const;
export type LeaseStatus = (typeof LEASE_STATUSES)[number];

export function isTerminal(status: LeaseStatus): boolean {
  return status === 'RELEASED' || status === 'FAILED';
}

/** Not started yet: stored (PENDING) or waiting for admission (QUEUED); what maxWaitingLeases counts. */
export function isWaiting(status: LeaseStatus): boolean {
  return status === 'PENDING' || status === 'QUEUED';
}

export interface Lease {
  readonly tenantId: string;
  readonly leaseId: string;
  readonly workload: Workload;
  readonly gpus: number;
  readonly instanceType: string;
  /** The mode the tenant asked for; the provisioner's decision is on each instance. */
  readonly requestedMode?: RentalMode | undefined;
  /** The tenant's own label for cost attribution and project budgets. */
  readonly project?: string | undefined;
  readonly status: LeaseStatus;
  readonly createdAtMs: number;
  readonly updatedAtMs: number;
  readonly releaseRequestedAtMs?: number | undefined;
  /** Why gpurent released the lease on its own (an idle policy, with the figures); absent for a tenant's release. */
  readonly releaseReason?: string | undefined;
  /** When the release terminated the instances; every open bill closes here. */
  readonly terminatedAtMs?: number | undefined;
  readonly failureReason?: string | undefined;
  /** When the lease is released on its own (EventBridge Scheduler); absent: it runs until released. */
  readonly expiresAtMs?: number | undefined;
  /** Any instance type with this GPU model will do (instead of one `instanceType`). */
  readonly gpuModel?: string | undefined;
  /** Regions the lease may run in; all GPU regions when absent. */
  readonly regions?: readonly string[] | undefined;
  /** Where the lease's data lives: pools elsewhere pay latency and transfer. */
  readonly dataRegion?: string | undefined;
  readonly dataGb?: number | undefined;
  /** Ceiling on what all the lease's instances together may cost per hour. */
  readonly maxHourlyMicroUsd?: number | undefined;
  /** Where the provisioner placed the lease, and why. */
  readonly placement?: LeasePlacement | undefined;
  /** `name:version`: launch this image version instead of the default image's current one. */
  readonly image?: string | undefined;
  /** The work the lease runs (SSM Run Command on its instance), and where it is. */
  readonly task?: TaskState | undefined;
  /** A task with a deadline: the deadline policy's latest decision (its history is stored beside the lease). */
  readonly deadlineDecision?: StoredDecision | undefined;
  /** 0-1000: orders the tenant's own waiting leases (absent on leases from before admission: 500). */
  readonly priority?: number | undefined;
  /** How long it may wait for admission before it FAILS with QUEUE_TIMEOUT (absent: 60). */
  readonly maxWaitMinutes?: number | undefined;
  /** While QUEUED: why, its place and when it is expected to start. */
  readonly queue?: LeaseQueueState | undefined;
  /** When it joined the admission queue; stamped when its wait ended (admitted or timed out). */
  readonly queuedAtMs?: number | undefined;
  /** The region admission counted it in (its first candidate's), stamped with `queuedAtMs`. */
  readonly queueRegion?: string | undefined;
  /** Each change of why it waits, and each end of a wait, in the order they happened (the queue figures). */
  readonly queueHistory?: readonly QueueMark[] | undefined;
}

/** How a wait for admission ends: admitted (handed to provisioning) or failed with QUEUE_TIMEOUT. */
export type QueueEnding = 'admitted' | 'timed-out';

/** From `atMs` the lease waited for `state` (a reason), or its wait ended so. */
export interface QueueMark {
  readonly state: QueueReason | QueueEnding;
  readonly atMs: number;
}

/** Where a QUEUED lease stands, as the last admission pass saw it. */
export interface LeaseQueueState {
  readonly reason: QueueReason;
  /** 1 = the next to be admitted. */
  readonly position: number;
  /** Null when no release known now lets it in before its maxWaitMinutes. */
  readonly estimatedStartAtMs: number | null;
  readonly estimateBasis: EstimateBasis;
  /**
   * When it stops waiting: FAILED with QUEUE_TIMEOUT unless admitted by then
   * (its maxWaitMinutes after it joined the queue). Absent on states stored
   * before it was recorded.
   */
  readonly waitEndsAtMs?: number | undefined;
}

/** The pool a lease was placed in, as stored on the lease and sent with LeaseRunning. */
export interface LeasePlacement {
  readonly region: string;
  readonly zone: string;
  readonly instanceType: string;
  readonly instances: number;
  readonly mode: RentalMode;
  readonly hourlyMicroUsd: number;
  /** The image version launched (`name:version`), when one is registered. */
  readonly image?: string | undefined;
  /** The mode decision and the pool choice, in words; pools that refused capacity are named. */
  readonly reason: string;
  /** `warm`: started stopped machines of a warm pool; `cold`: launched (absent on leases from before warm pools). */
  readonly start?: LeaseStart | undefined;
  /** From the lease's creation to RUNNING. */
  readonly secondsToRunning?: number | undefined;
}

export const LEASE_STARTS = ['warm', 'cold'] as const;
export type LeaseStart = (typeof LEASE_STARTS)[number];

/** One EC2 instance owned by a lease, with its metering checkpoint. */
export interface LeaseInstance {
  readonly tenantId: string;
  readonly leaseId: string;
  readonly instanceId: string;
  readonly instanceType: string;
  readonly mode: RentalMode;
  /** The lease's project label, copied so metering can count spend per project. */
  readonly project?: string | undefined;
  /** The instance's region; the home region when absent (records from before regions). */
  readonly region?: string | undefined;
  /** The reserved commitment whose slot the instance holds (reserved mode only). */
  readonly commitmentId?: string | undefined;
  /** When EC2 warned that it takes the instance back (spot interruption). */
  readonly interruptedAtMs?: number | undefined;
  /** When EC2's state-change event said the instance is running. */
  readonly runningConfirmedAtMs?: number | undefined;
  readonly zone: string;
  readonly priceMicroUsdPerHour: number;
  readonly launchedAtMs: number;
  /** Set once the instance is terminated; the bill closes at this instant. */
  readonly endedAtMs?: number | undefined;
  readonly billedSeconds: number;
  readonly billedMicroUsd: number;
  /** The instant the last charge ran up to (launch time before the first). */
  readonly meteredUntilMs: number;
  /** True while metering still owes a charge for this instance. */
  readonly meteringOpen: boolean;
  /** Its volumes (GiB) and their GB-month price, fixed at launch; absent on records from before storage was billed. */
  readonly volumeGb?: number | undefined;
  readonly storageMicroUsdPerGbMonth?: number | undefined;
  /** Storage charged so far (the storage part of the checkpoint). */
  readonly storageBilledSeconds?: number | undefined;
  readonly storageBilledMicroUsd?: number | undefined;
  /** Moving the lease's data to this instance's region: owed once, with the instance's first charge. */
  readonly transferMicroUsd?: number | undefined;
  /**
   * Set on the instance that carries the lease's task checkpoints (S3 Standard
   * GB-month price of the bucket's region, fixed at launch); absent on the others.
   */
  readonly checkpointMicroUsdPerGbMonth?: number | undefined;
  /** The checkpoint part of the metering checkpoint (shared/domain/checkpoint-billing.ts). */
  readonly checkpointBytes?: number | undefined;
  readonly checkpointMeasuredAtMs?: number | undefined;
  readonly checkpointByteMs?: string | undefined;
  readonly checkpointBilledMicroUsd?: number | undefined;
}

export interface LeaseView extends Lease {
  readonly instances: readonly LeaseInstance[];
}
