import type { RentalMode } from '../domain/lease';
import type {
  LastScalingAction,
  Observation,
  ScalingAction,
  ScalingGroupSpec,
  WaitingMember,
} from '../domain/scaling';

export type ScalingGroupStatus = 'ACTIVE' | 'DELETING';

/** A member as the group records it; its status and instances live on the lease. */
export interface MemberRecord {
  readonly leaseId: string;
  /** The mode the group asked for when it created the lease. */
  readonly mode: RentalMode;
  readonly createdAtMs: number;
}

/** The outcome of the last evaluation, kept on the group whatever it decided. */
export interface LastEvaluation {
  readonly atMs: number;
  readonly action: ScalingAction;
  readonly from: number;
  readonly to: number;
  readonly reason: string;
  /** Members whose leases wait in the admission queue (absent when none). */
  readonly waiting?: readonly WaitingMember[] | undefined;
}

export interface ScalingGroup {
  readonly tenantId: string;
  readonly name: string;
  readonly spec: ScalingGroupSpec;
  readonly status: ScalingGroupStatus;
  /** The size the group is converging to. */
  readonly desired: number;
  /** Bumped by every evaluation that acts and by every change of spec or status: the lock. */
  readonly version: number;
  readonly lastAction: LastScalingAction | null;
  readonly lastEvaluation?: LastEvaluation | undefined;
  readonly members: readonly MemberRecord[];
  readonly createdAtMs: number;
  readonly updatedAtMs: number;
}

/** A decision that changed something, with the inputs it was taken on. */
export interface StoredDecision extends LastEvaluation {
  readonly observations: readonly Observation[];
  readonly launched: readonly string[];
  readonly released: readonly string[];
}

export interface ScalingGroupPage {
  readonly groups: readonly ScalingGroup[];
  readonly nextCursor?: string | undefined;
}

export interface ScalingGroupRepository {
  /** Creates the group, or replaces its spec (keeping members, clamping desired into the new bounds). */
  put(tenantId: string, name: string, spec: ScalingGroupSpec, nowMs: number): Promise<ScalingGroup>;
  get(tenantId: string, name: string): Promise<ScalingGroup | undefined>;
  /** The tenant's groups by name. */
  list(tenantId: string): Promise<ScalingGroup[]>;
  /**
   * A page of up to `limit` groups of every tenant, for the evaluator: it reads
   * them page by page, never all at once. `nextCursor` is absent on the last page.
   */
  listPage(limit: number, cursor?: string): Promise<ScalingGroupPage>;
  /**
   * Records an evaluation's outcome only if the group is still ACTIVE at the
   * version it was read at. False when another evaluation or a change got there
   * first: the caller must then not act.
   */
  claim(
    group: ScalingGroup,
    outcome: { desired: number; lastAction: LastScalingAction | null; lastEvaluation: LastEvaluation },
  ): Promise<boolean>;
  /** Adds a member if the group is still ACTIVE; false when it is being deleted. */
  addMember(tenantId: string, name: string, member: MemberRecord): Promise<boolean>;
  removeMembers(tenantId: string, name: string, leaseIds: readonly string[]): Promise<void>;
  recordDecision(tenantId: string, name: string, decision: StoredDecision): Promise<void>;
  /** The newest decisions first. */
  decisions(tenantId: string, name: string, limit: number): Promise<StoredDecision[]>;
  /** Moves the group to DELETING (evaluations stop acting on it); undefined if there is none. */
  markDeleting(tenantId: string, name: string, nowMs: number): Promise<ScalingGroup | undefined>;
  delete(tenantId: string, name: string): Promise<void>;
}

/** A GPU reported unhealthy, remembered so that it is reported once per episode. */
export interface UnhealthyGpuMark {
  readonly instanceId: string;
  readonly gpuIndex: number;
  readonly status: 'hot' | 'silent';
  readonly sinceMs: number;
}

export interface GpuHealthMarks {
  /** The GPUs currently marked unhealthy. */
  marked(): Promise<UnhealthyGpuMark[]>;
  /** Marks the GPU; false when it already carried this very mark (nothing to report). */
  mark(mark: UnhealthyGpuMark): Promise<boolean>;
  clear(instanceId: string, gpuIndex: number): Promise<void>;
}
