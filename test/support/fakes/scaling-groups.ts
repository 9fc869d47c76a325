import { groupAfterPut } from '../../../shared/adapters/dynamodb-scaling-group-repository';
import type { LastScalingAction, ScalingGroupSpec } from '../../../shared/domain/scaling';
import type {
  GpuHealthMarks,
  LastEvaluation,
  MemberRecord,
  ScalingGroup,
  ScalingGroupPage,
  ScalingGroupRepository,
  StoredDecision,
  UnhealthyGpuMark,
} from '../../../shared/ports/scaling-groups';
import { Faults, stored } from './faults';

const key = (tenantId: string, name: string) => `${tenantId}\n${name}`;

/**
 * Groups with DynamoDbScalingGroupRepository's rules: a put follows its
 * groupAfterPut (ScalingGroupDeletingError over a DELETING group), a claim
 * holds only at the version read while ACTIVE (and bumps it), members join
 * only an ACTIVE group.
 */
export class FakeScalingGroupRepository implements ScalingGroupRepository {
  readonly faults = new Faults<keyof ScalingGroupRepository>();
  private readonly groups = new Map<string, ScalingGroup>();
  private readonly decisionLog = new Map<string, StoredDecision[]>();

  async put(tenantId: string, name: string, spec: ScalingGroupSpec, nowMs: number): Promise<ScalingGroup> {
    this.faults.enter('put', [tenantId, name, spec, nowMs]);
    const group = groupAfterPut(this.groups.get(key(tenantId, name)), { tenantId, name, spec, nowMs });
    this.groups.set(key(tenantId, name), stored(group));
    return stored(group);
  }

  async get(tenantId: string, name: string): Promise<ScalingGroup | undefined> {
    this.faults.enter('get', [tenantId, name]);
    const group = this.groups.get(key(tenantId, name));
    return group && stored(group);
  }

  async list(tenantId: string): Promise<ScalingGroup[]> {
    this.faults.enter('list', [tenantId]);
    return [...this.groups.values()]
      .filter((g) => g.tenantId === tenantId)
      .sort((a, b) => a.name.localeCompare(b.name))
      .map(stored);
  }

  /** By tenant and name, as the all-groups index orders them; the cursor is the last key given. */
  async listPage(limit: number, cursor?: string): Promise<ScalingGroupPage> {
    this.faults.enter('listPage', [limit, cursor]);
    const ordered = [...this.groups.entries()]
      .filter(([k]) => cursor === undefined || k > cursor)
      .sort(([a], [b]) => a.localeCompare(b));
    const page = ordered.slice(0, limit);
    return {
      groups: page.map(([, group]) => stored(group)),
      nextCursor: ordered.length > limit ? page.at(-1)?.[0] : undefined,
    };
  }

  async claim(
    group: ScalingGroup,
    outcome: { desired: number; lastAction: LastScalingAction | null; lastEvaluation: LastEvaluation },
  ): Promise<boolean> {
    this.faults.enter('claim', [group, outcome]);
    const current = this.groups.get(key(group.tenantId, group.name));
    if (current?.status !== 'ACTIVE' || current.version !== group.version) return false;
    this.groups.set(
      key(group.tenantId, group.name),
      stored({
        ...current,
        ...outcome,
        version: group.version + 1,
        updatedAtMs: outcome.lastEvaluation.atMs,
      }),
    );
    return true;
  }

  async addMember(tenantId: string, name: string, member: MemberRecord): Promise<boolean> {
    this.faults.enter('addMember', [tenantId, name, member]);
    const current = this.groups.get(key(tenantId, name));
    if (current?.status !== 'ACTIVE') return false;
    const members = [...current.members.filter((m) => m.leaseId !== member.leaseId), member];
    this.groups.set(key(tenantId, name), stored({ ...current, members: byAge(members) }));
    return true;
  }

  async removeMembers(tenantId: string, name: string, leaseIds: readonly string[]): Promise<void> {
    this.faults.enter('removeMembers', [tenantId, name, leaseIds]);
    const current = this.groups.get(key(tenantId, name));
    if (!current) return;
    const members = current.members.filter((m) => !leaseIds.includes(m.leaseId));
    this.groups.set(key(tenantId, name), stored({ ...current, members }));
  }

  async recordDecision(tenantId: string, name: string, decision: StoredDecision): Promise<void> {
    this.faults.enter('recordDecision', [tenantId, name, decision]);
    // Keyed by instant, as the adapter's sort key: a second decision at the same instant replaces the first.
    const log = (this.decisionLog.get(key(tenantId, name)) ?? []).filter((d) => d.atMs !== decision.atMs);
    this.decisionLog.set(key(tenantId, name), [...log, stored(decision)]);
  }

  async decisions(tenantId: string, name: string, limit: number): Promise<StoredDecision[]> {
    this.faults.enter('decisions', [tenantId, name, limit]);
    return [...(this.decisionLog.get(key(tenantId, name)) ?? [])]
      .sort((a, b) => b.atMs - a.atMs)
      .slice(0, limit)
      .map(stored);
  }

  async markDeleting(tenantId: string, name: string, nowMs: number): Promise<ScalingGroup | undefined> {
    this.faults.enter('markDeleting', [tenantId, name, nowMs]);
    const current = this.groups.get(key(tenantId, name));
    if (!current) return undefined;
    const next: ScalingGroup = {
      ...current,
      status: 'DELETING',
      version: current.version + 1,
      updatedAtMs: nowMs,
    };
    this.groups.set(key(tenantId, name), stored(next));
    return stored(next);
  }

  async delete(tenantId: string, name: string): Promise<void> {
    this.faults.enter('delete', [tenantId, name]);
    this.groups.delete(key(tenantId, name));
  }
}

const byAge = (members: readonly MemberRecord[]) =>
  [...members].sort((a, b) => a.createdAtMs - b.createdAtMs);

/** Unhealthy-GPU marks: marking again with the same status reports nothing (DynamoDbGpuHealthMarks). */
export class FakeGpuHealthMarks implements GpuHealthMarks {
  private readonly marks = new Map<string, UnhealthyGpuMark>();

  async marked(): Promise<UnhealthyGpuMark[]> {
    return [...this.marks.values()].map(stored);
  }

  async mark(mark: UnhealthyGpuMark): Promise<boolean> {
    const id = `${mark.instanceId}#${mark.gpuIndex}`;
    if (this.marks.get(id)?.status === mark.status) return false;
    this.marks.set(id, stored(mark));
    return true;
  }

  async clear(instanceId: string, gpuIndex: number): Promise<void> {
    this.marks.delete(`${instanceId}#${gpuIndex}`);
  }
}
