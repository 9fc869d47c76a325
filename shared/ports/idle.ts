import type { IdleRollup } from '../domain/audit/idle-cost';
import type { IdleCheckpoint, IdleDay } from '../domain/waste/idle-ledger';
import type { IdleAlertMessage } from '../domain/waste/idle-message';
import type { IdlePolicy } from '../domain/waste/idle-policy';

/** Who set a policy: an admin's binds the tenant, the tenant's may only tighten it. */
export type IdlePolicyScope = 'admin' | 'tenant';

export interface IdlePolicies {
  readonly admin?: IdlePolicy | undefined;
  readonly tenant?: IdlePolicy | undefined;
}

/** A tenant's two idle policies (leases table, `TENANT#t`, `IDLE_POLICY#admin|tenant`). */
export interface IdlePolicyRepository {
  get(tenantId: string): Promise<IdlePolicies>;
  /** The policies of each tenant asked for, in one batched read (absent: neither set). */
  ofTenants(tenantIds: readonly string[]): Promise<Map<string, IdlePolicies>>;
  put(tenantId: string, scope: IdlePolicyScope, policy: IdlePolicy): Promise<void>;
  /** False when there was none. */
  delete(tenantId: string, scope: IdlePolicyScope): Promise<boolean>;
}

/** An open idle episode of a lease, with its notice's claim (the exactly-once rule of budget alerts). */
export interface IdleEpisode {
  readonly tenantId: string;
  readonly leaseId: string;
  readonly episodeId: string;
  readonly idleSinceMs: number;
  readonly claimedAtMs: number;
  readonly sentAtMs?: number | undefined;
}

/** Open idle episodes, one partition of the scaling-groups table (`IDLE_EPISODES`): few leases are idle at once. */
export interface IdleEpisodes {
  open(): Promise<IdleEpisode[]>;
  /**
   * Claims the episode's notice: true for the one caller that gets it (no
   * record of this episode, or a claim older than `staleBeforeMs` that was
   * never marked sent, which is taken over).
   */
  claim(episode: IdleEpisode, staleBeforeMs: number): Promise<boolean>;
  markSent(tenantId: string, leaseId: string, episodeId: string, atMs: number): Promise<void>;
  /** The lease was busy again or ended: its next idle stretch is a new episode. */
  close(tenantId: string, leaseId: string): Promise<void>;
}

/** One instance's idle charge of a run: its checkpoint moves from `from` to `charge.checkpoint`. */
export interface IdleChargeRecord {
  readonly tenantId: string;
  readonly leaseId: string;
  readonly instanceId: string;
  readonly project?: string | undefined;
  readonly from: IdleCheckpoint;
  readonly to: IdleCheckpoint;
  readonly days: readonly IdleDay[];
}

/**
 * One idle rollup of a tenant's day: the whole tenant, one project (`-`: no
 * project) or one lease (with its project).
 */
export interface IdleDayTotals extends IdleRollup {
  readonly day: string;
}

/**
 * The waste ledger (spend table): each instance's idle checkpoint and the
 * daily rollups (tenant, project, lease) it adds to, written together.
 */
export interface IdleLedger {
  /** The idle checkpoint of each instance (empty when none yet). */
  checkpoints(
    instances: readonly { tenantId: string; leaseId: string; instanceId: string }[],
  ): Promise<IdleCheckpoint[]>;
  /**
   * Moves the checkpoint and adds the days in one transaction, conditioned on
   * the checkpoint read; false when another run moved it first (nothing written).
   */
  record(charge: IdleChargeRecord): Promise<boolean>;
  /** A tenant's rollups of the days `fromDay`..`toDay` (inclusive). */
  dailyIdle(tenantId: string, fromDay: string, toDay: string): Promise<IdleDayTotals[]>;
}

/** Idle notices on the budget alerts topic. */
export interface IdleNotifier {
  publish(message: IdleAlertMessage): Promise<void>;
}
