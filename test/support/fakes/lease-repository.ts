import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { LeaseAlreadyExistsError } from '../../../shared/adapters/dynamodb-lease-repository';
import {
  isWaiting,
  type Lease,
  type LeaseInstance,
  type LeaseStatus,
  type LeaseView,
} from '../../../shared/domain/lease';
import type { TaskState } from '../../../shared/domain/tasks/state';
import type {
  LeasePage,
  LeaseRef,
  LeaseRepository,
  OpenLeaseStatus,
  TransitionChanges,
} from '../../../shared/ports/lease-repository';
import type { InstanceRef } from '../../../shared/ports/metering-work';
import { Faults, stored } from './faults';

type Method = keyof LeaseRepository;

const leaseId = (tenantId: string, id: string) => `${tenantId}\n${id}`;
const instanceId = (ref: InstanceRef) => `${ref.tenantId}\n${ref.leaseId}\n${ref.instanceId}`;

/** What DynamoDB throws when an update's `attribute_exists(pk)` condition finds no item. */
export const missingItem = () =>
  new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });

/**
 * Leases and their instance records with DynamoDbLeaseRepository's conditions:
 * a taken id is LeaseAlreadyExistsError, transitions hold only from the listed
 * statuses, stamps are written once, recorded instances are never overwritten,
 * and updates of an item that does not exist fail as DynamoDB's do. The
 * metering ledger moves instance checkpoints through `checkpoint`.
 */
export class FakeLeaseRepository implements LeaseRepository {
  readonly faults = new Faults<Method>();
  private readonly leases = new Map<string, Lease>();
  private readonly instances = new Map<string, LeaseInstance>();

  async create(lease: Lease): Promise<void> {
    this.faults.enter('create', [lease]);
    const key = leaseId(lease.tenantId, lease.leaseId);
    if (this.leases.has(key)) throw new LeaseAlreadyExistsError(lease.leaseId);
    this.leases.set(key, stored(lease));
  }

  async discard(tenantId: string, id: string): Promise<void> {
    this.faults.enter('discard', [tenantId, id]);
    this.leases.delete(leaseId(tenantId, id));
  }

  async get(tenantId: string, id: string): Promise<LeaseView | undefined> {
    this.faults.enter('get', [tenantId, id]);
    const lease = this.leases.get(leaseId(tenantId, id));
    return lease && { ...stored(lease), instances: this.instancesOf(tenantId, id) };
  }

  async list(tenantId: string, limit: number, cursor?: string): Promise<LeasePage> {
    this.faults.enter('list', [tenantId, limit, cursor]);
    const after = cursor === undefined ? undefined : Buffer.from(cursor, 'base64url').toString();
    const newestFirst = [...this.leases.values()]
      .filter((l) => l.tenantId === tenantId && (after === undefined || l.leaseId < after))
      .sort((a, b) => b.leaseId.localeCompare(a.leaseId));
    const page = newestFirst.slice(0, limit);
    const last = page.at(-1);
    return {
      leases: page.map((l) => ({ ...stored(l), instances: this.instancesOf(tenantId, l.leaseId) })),
      nextCursor:
        newestFirst.length > limit && last ? Buffer.from(last.leaseId).toString('base64url') : undefined,
    };
  }

  /** By createdAtMs (the adapter reads the id range that stands for it), oldest first. */
  async listCreatedBetween(tenantId: string, fromMs: number, toMs: number): Promise<LeaseView[]> {
    this.faults.enter('listCreatedBetween', [tenantId, fromMs, toMs]);
    return [...this.leases.values()]
      .filter((l) => l.tenantId === tenantId && l.createdAtMs >= fromMs && l.createdAtMs < toMs)
      .sort((a, b) => a.leaseId.localeCompare(b.leaseId))
      .map((l) => ({ ...stored(l), instances: this.instancesOf(tenantId, l.leaseId) }));
  }

  async transition(
    tenantId: string,
    id: string,
    from: readonly LeaseStatus[],
    to: LeaseStatus,
    atMs: number,
    changes: TransitionChanges = {},
  ): Promise<boolean> {
    this.faults.enter('transition', [tenantId, id, from, to, atMs, changes]);
    const key = leaseId(tenantId, id);
    const lease = this.leases.get(key);
    if (!lease || !from.includes(lease.status)) return false;
    const { queueEnd, ...plain } = changes;
    const marks = [...(lease.queueHistory ?? [])];
    if (plain.queue && (lease.status !== 'QUEUED' || lease.queue?.reason !== plain.queue.reason))
      marks.push({ state: plain.queue.reason, atMs });
    if (queueEnd) marks.push({ state: queueEnd.state, atMs });
    const ended = queueEnd && {
      queuedAtMs: queueEnd.queuedAtMs,
      ...(queueEnd.region === undefined ? {} : { queueRegion: queueEnd.region }),
    };
    const history = marks.length > 0 ? { queueHistory: marks } : {};
    this.leases.set(key, stored({ ...lease, ...plain, ...ended, ...history, status: to, updatedAtMs: atMs }));
    return true;
  }

  async saveTask(tenantId: string, id: string, task: TaskState): Promise<boolean> {
    this.faults.enter('saveTask', [tenantId, id, task]);
    const key = leaseId(tenantId, id);
    const lease = this.leases.get(key);
    if (lease?.task?.revision !== task.revision - 1) return false;
    this.leases.set(key, { ...lease, task });
    this.faults.leave('saveTask');
    return true;
  }

  async recordTermination(tenantId: string, id: string, atMs: number): Promise<number> {
    this.faults.enter('recordTermination', [tenantId, id, atMs]);
    const key = leaseId(tenantId, id);
    const lease = this.leases.get(key);
    if (!lease) throw missingItem();
    const terminatedAtMs = lease.terminatedAtMs ?? atMs;
    this.leases.set(key, { ...lease, terminatedAtMs });
    return terminatedAtMs;
  }

  async stampInstanceEnds(refs: readonly InstanceRef[], endedAtMs: number): Promise<void> {
    this.faults.enter('stampInstanceEnds', [refs, endedAtMs]);
    let missing = false;
    for (const ref of refs) {
      const instance = this.instances.get(instanceId(ref));
      if (!instance) missing = true;
      else this.instances.set(instanceId(ref), { ...instance, endedAtMs: instance.endedAtMs ?? endedAtMs });
    }
    // The adapter writes each in parallel: the others land, the call still fails.
    if (missing) throw missingItem();
  }

  async recordInstances(instances: readonly LeaseInstance[]): Promise<void> {
    this.faults.enter('recordInstances', [instances]);
    for (const instance of instances) {
      if (!this.instances.has(instanceId(instance)))
        this.instances.set(instanceId(instance), stored(instance));
    }
    this.faults.leave('recordInstances');
  }

  async stampInstance(
    ref: Pick<LeaseInstance, 'tenantId' | 'leaseId' | 'instanceId'>,
    stamp: 'interruptedAtMs' | 'runningConfirmedAtMs',
    atMs: number,
  ): Promise<boolean> {
    this.faults.enter('stampInstance', [ref, stamp, atMs]);
    const instance = this.instances.get(instanceId(ref));
    if (!instance || instance[stamp] !== undefined) return false;
    this.instances.set(instanceId(ref), { ...instance, [stamp]: atMs });
    return true;
  }

  /** As the open-leases index orders them: by lease id (time first), across tenants. */
  async openLeases(status: OpenLeaseStatus, limit: number): Promise<LeaseRef[]> {
    this.faults.enter('openLeases', [status, limit]);
    return [...this.leases.values()]
      .filter((l) => l.status === status)
      .sort((a, b) => a.leaseId.localeCompare(b.leaseId))
      .slice(0, limit)
      .map(({ tenantId, leaseId }) => ({ tenantId, leaseId }));
  }

  /** The tenant's PENDING and QUEUED leases, counted no further than `upTo` (as the index query's Limit). */
  async countWaiting(tenantId: string, upTo: number): Promise<number> {
    this.faults.enter('countWaiting', [tenantId, upTo]);
    const waiting = [...this.leases.values()].filter((l) => l.tenantId === tenantId && isWaiting(l.status));
    return Math.min(waiting.length, Math.max(upTo, 0));
  }

  async openInstances(): Promise<LeaseInstance[]> {
    this.faults.enter('openInstances', []);
    return [...this.instances.values()].filter((i) => i.meteringOpen).map(stored);
  }

  async instancesByRef(refs: readonly InstanceRef[]): Promise<LeaseInstance[]> {
    this.faults.enter('instancesByRef', [refs]);
    return refs.flatMap((ref) => {
      const instance = this.instances.get(instanceId(ref));
      return instance ? [stored(instance)] : [];
    });
  }

  async openInstancesOf(tenantId: string): Promise<LeaseInstance[]> {
    this.faults.enter('openInstancesOf', [tenantId]);
    return [...this.instances.values()].filter((i) => i.meteringOpen && i.tenantId === tenantId).map(stored);
  }

  /**
   * Moves an instance's checkpoint if it is still open at `expectedBilledSeconds`
   * (the ledger's transaction condition); false when another writer moved it first.
   */
  checkpoint(ref: InstanceRef, expectedBilledSeconds: number, next: Partial<LeaseInstance>): boolean {
    const instance = this.instances.get(instanceId(ref));
    if (!instance?.meteringOpen || instance.billedSeconds !== expectedBilledSeconds) return false;
    this.instances.set(instanceId(ref), { ...instance, ...next });
    return true;
  }

  /** Drops an instance's record, as if the worker that launched it died before writing it. */
  forgetInstance(tenantId: string, leaseId: string, id: string): void {
    this.instances.delete(instanceId({ tenantId, leaseId, instanceId: id }));
  }

  /** The lease as stored, for assertions (undefined when there is none). */
  peek(tenantId: string, id: string): LeaseView | undefined {
    const lease = this.leases.get(leaseId(tenantId, id));
    return lease && { ...stored(lease), instances: this.instancesOf(tenantId, id) };
  }

  private instancesOf(tenantId: string, id: string): LeaseInstance[] {
    return [...this.instances.values()]
      .filter((i) => i.tenantId === tenantId && i.leaseId === id)
      .sort((a, b) => a.instanceId.localeCompare(b.instanceId))
      .map(stored);
  }
}
