import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { taskDeadline } from '../domain/deadlines/job-record';
import { dynamoItemBytes, MAX_NEW_LEASE_ITEM_BYTES } from '../domain/item-size';
import {
  isTerminal,
  isWaiting,
  type Lease,
  type LeaseInstance,
  type LeaseQueueState,
  type LeaseStatus,
  type LeaseView,
  type QueueMark,
} from '../domain/lease';
import type { TaskState } from '../domain/tasks/state';
import { leaseIdFloor } from '../ids';
import { TaskTooLargeError } from '../limit-errors';
import type {
  LeasePage,
  LeaseRef,
  LeaseRepository,
  OpenLeaseStatus,
  TransitionChanges,
} from '../ports/lease-repository';
import type { InstanceRef } from '../ports/metering-work';
import { OPEN_LEASES_INDEX, WAITING_LEASES_INDEX } from '../resources';
import { batchGetAll } from './dynamodb-batch-get';
import { decodeCursor, encodeCursor } from './dynamodb-cursor';
import {
  DEADLINE_OPEN,
  instanceKey,
  instancePrefix,
  leaseKey,
  METERING_OPEN,
  tenantKey,
} from './dynamodb-keys';
import { queryAll } from './dynamodb-query-all';

export class LeaseAlreadyExistsError extends Error {
  constructor(readonly leaseId: string) {
    super(`Lease ${leaseId} already exists`);
    this.name = 'LeaseAlreadyExistsError';
  }
}

const OPEN_METERING_INDEX = 'open-metering-keys';
const APPEND_MARK = 'queueHistory = list_append(if_not_exists(queueHistory, :noMarks), :marks)';
const markValues = (mark: QueueMark) => ({ ':noMarks': [], ':marks': [mark] });

type Item = Record<string, unknown>;

function toLease(item: Item): Lease {
  const {
    pk: _pk,
    sk: _sk,
    entity: _entity,
    deadlineOpen: _open,
    openStatus: _openStatus,
    waitingTenant: _waitingTenant,
    ...lease
  } = item;
  return lease as unknown as Lease;
}

/** A lease is listed in the open-leases index under its status until it ends. */
function openStatusOf(status: LeaseStatus): { openStatus?: LeaseStatus } {
  return isTerminal(status) ? {} : { openStatus: status };
}

/** A lease is listed in the waiting-leases index under its tenant while it waits to start. */
function waitingTenantOf(status: LeaseStatus, tenantId: string): { waitingTenant?: string } {
  return isWaiting(status) ? { waitingTenant: tenantId } : {};
}

function toInstance(item: Item): LeaseInstance {
  const { pk: _pk, sk: _sk, entity: _entity, meteringOpen, ...instance } = item;
  return { ...(instance as unknown as LeaseInstance), meteringOpen: meteringOpen === METERING_OPEN };
}

function instanceItem(instance: LeaseInstance): Item {
  const { meteringOpen, ...fields } = instance;
  return {
    pk: tenantKey(instance.tenantId),
    sk: instanceKey(instance.leaseId, instance.instanceId),
    entity: 'instance',
    ...fields,
    ...(meteringOpen ? { meteringOpen: METERING_OPEN } : {}),
  };
}

export class DynamoDbLeaseRepository implements LeaseRepository {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async create(lease: Lease): Promise<void> {
    const item = {
      pk: tenantKey(lease.tenantId),
      sk: leaseKey(lease.leaseId),
      entity: 'lease',
      ...lease,
      // Listed for the deadline schedule until its job is over.
      ...(lease.task && taskDeadline(lease.task.spec) ? { deadlineOpen: DEADLINE_OPEN } : {}),
      ...openStatusOf(lease.status),
      ...waitingTenantOf(lease.status, lease.tenantId),
    };
    // Refused here, before the first write of the lease: DynamoDB's own refusal would be a 500.
    const sizeBytes = dynamoItemBytes(item);
    if (sizeBytes > MAX_NEW_LEASE_ITEM_BYTES) throw new TaskTooLargeError(sizeBytes);
    try {
      await this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: item,
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) throw new LeaseAlreadyExistsError(lease.leaseId);
      throw error;
    }
  }

  async discard(tenantId: string, leaseId: string): Promise<void> {
    await this.client.send(
      new DeleteCommand({
        TableName: this.tableName,
        Key: { pk: tenantKey(tenantId), sk: leaseKey(leaseId) },
      }),
    );
  }

  async get(tenantId: string, leaseId: string): Promise<LeaseView | undefined> {
    const [leaseResult, instances] = await Promise.all([
      this.client.send(
        new GetCommand({
          TableName: this.tableName,
          Key: { pk: tenantKey(tenantId), sk: leaseKey(leaseId) },
          ConsistentRead: true,
        }),
      ),
      this.instancesOf(tenantId, leaseId),
    ]);
    if (!leaseResult.Item) return undefined;
    return { ...toLease(leaseResult.Item), instances };
  }

  async list(tenantId: string, limit: number, cursor?: string): Promise<LeasePage> {
    const result = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': tenantKey(tenantId), ':prefix': 'LEASE#' },
        ScanIndexForward: false,
        Limit: limit,
        ExclusiveStartKey: decodeCursor(cursor, tenantKey(tenantId), 'LEASE#'),
      }),
    );
    const page = (result.Items ?? []).map(toLease);
    const instances = await this.instancesOfPage(tenantId, page);
    const leases = page.map((lease) => ({ ...lease, instances: instances.get(lease.leaseId) ?? [] }));
    return {
      leases,
      nextCursor: encodeCursor(result.LastEvaluatedKey),
    };
  }

  async listCreatedBetween(tenantId: string, fromMs: number, toMs: number): Promise<LeaseView[]> {
    const between = (prefix: (leaseId: string) => string) => ({
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: {
        ':pk': tenantKey(tenantId),
        ':from': prefix(leaseIdFloor(fromMs)),
        ':to': prefix(leaseIdFloor(toMs)),
      },
    });
    // The instances of those leases sit under INSTANCE#<leaseId>#…: the same id range, one more query.
    const [leaseItems, instanceItems] = await Promise.all([
      queryAll(this.client, between(leaseKey)),
      queryAll(this.client, { ...between(instancePrefix), ConsistentRead: true }),
    ]);
    const instances = new Map<string, LeaseInstance[]>();
    for (const instance of instanceItems.map(toInstance)) {
      instances.set(instance.leaseId, [...(instances.get(instance.leaseId) ?? []), instance]);
    }
    return leaseItems
      .map(toLease)
      .filter((lease) => lease.createdAtMs >= fromMs && lease.createdAtMs < toMs)
      .map((lease) => ({ ...lease, instances: instances.get(lease.leaseId) ?? [] }));
  }

  async transition(
    tenantId: string,
    leaseId: string,
    from: readonly LeaseStatus[],
    to: LeaseStatus,
    atMs: number,
    changes: TransitionChanges = {},
  ): Promise<boolean> {
    const { queueEnd, ...plain } = changes;
    const fromValues = Object.fromEntries(from.map((status, i) => [`:from${i}`, status]));
    const extra = Object.entries(plain).filter(([, value]) => value !== undefined);
    const sets = ['#status = :to', 'updatedAtMs = :at', ...extra.map(([name]) => `${name} = :${name}`)];
    // The open-leases index follows the status, and drops the lease once it ended.
    if (!isTerminal(to)) sets.push('openStatus = :to');
    // The waiting-leases index holds the lease under its tenant until it starts or ends.
    const waiting = waitingTenantOf(to, tenantId);
    if (waiting.waitingTenant !== undefined) sets.push('waitingTenant = :waitingTenant');
    const removes = [
      ...(isTerminal(to) ? ['openStatus'] : []),
      ...(waiting.waitingTenant === undefined ? ['waitingTenant'] : []),
    ];
    const ending: Record<string, unknown> = {};
    if (queueEnd) {
      sets.push('queuedAtMs = :queuedAtMs', APPEND_MARK);
      Object.assign(ending, {
        ':queuedAtMs': queueEnd.queuedAtMs,
        ...markValues({ state: queueEnd.state, atMs }),
      });
      if (queueEnd.region !== undefined) {
        sets.push('queueRegion = :queueRegion');
        ending[':queueRegion'] = queueEnd.region;
      }
    }
    let before: Item | undefined;
    try {
      const result = await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: tenantKey(tenantId), sk: leaseKey(leaseId) },
          UpdateExpression: `SET ${sets.join(', ')}${removes.length > 0 ? ` REMOVE ${removes.join(', ')}` : ''}`,
          ConditionExpression: `#status IN (${Object.keys(fromValues).join(', ')})`,
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':to': to,
            ':at': atMs,
            ...fromValues,
            ...(waiting.waitingTenant === undefined ? {} : { ':waitingTenant': waiting.waitingTenant }),
            ...Object.fromEntries(extra.map(([name, value]) => [`:${name}`, value])),
            ...ending,
          },
          ...(plain.queue ? { ReturnValues: 'UPDATED_OLD' as const } : {}),
        }),
      );
      before = result.Attributes;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
    if (
      plain.queue &&
      (before?.status !== 'QUEUED' ||
        (before.queue as LeaseQueueState | undefined)?.reason !== plain.queue.reason)
    ) {
      await this.markQueue(tenantId, leaseId, { state: plain.queue.reason, atMs });
    }
    return true;
  }

  /**
   * A second write, as the reason that was stored is known only from the
   * first: a pass that stops between them loses the mark (the figures then
   * count the wait to the earlier reason), never the transition.
   */
  private async markQueue(tenantId: string, leaseId: string, mark: QueueMark): Promise<void> {
    await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { pk: tenantKey(tenantId), sk: leaseKey(leaseId) },
        UpdateExpression: `SET ${APPEND_MARK}`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: markValues(mark),
      }),
    );
  }

  async saveTask(tenantId: string, leaseId: string, task: TaskState): Promise<boolean> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: tenantKey(tenantId), sk: leaseKey(leaseId) },
          UpdateExpression: 'SET task = :task',
          ConditionExpression: 'task.revision = :previous',
          ExpressionAttributeValues: { ':task': task, ':previous': task.revision - 1 },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  async recordTermination(tenantId: string, leaseId: string, atMs: number): Promise<number> {
    const result = await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { pk: tenantKey(tenantId), sk: leaseKey(leaseId) },
        UpdateExpression: 'SET terminatedAtMs = if_not_exists(terminatedAtMs, :at)',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':at': atMs },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Number(result.Attributes?.terminatedAtMs ?? atMs);
  }

  async stampInstanceEnds(instances: readonly InstanceRef[], endedAtMs: number): Promise<void> {
    await Promise.all(
      instances.map((instance) =>
        this.client.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: { pk: tenantKey(instance.tenantId), sk: instanceKey(instance.leaseId, instance.instanceId) },
            UpdateExpression: 'SET endedAtMs = if_not_exists(endedAtMs, :end)',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':end': endedAtMs },
          }),
        ),
      ),
    );
  }

  async recordInstances(instances: readonly LeaseInstance[]): Promise<void> {
    await Promise.all(
      instances.map(async (instance) => {
        try {
          await this.client.send(
            new PutCommand({
              TableName: this.tableName,
              Item: instanceItem(instance),
              ConditionExpression: 'attribute_not_exists(pk)',
            }),
          );
        } catch (error) {
          // Already recorded by an earlier delivery: its checkpoint is the truth.
          if (!(error instanceof ConditionalCheckFailedException)) throw error;
        }
      }),
    );
  }

  async stampInstance(
    instance: Pick<LeaseInstance, 'tenantId' | 'leaseId' | 'instanceId'>,
    stamp: 'interruptedAtMs' | 'runningConfirmedAtMs',
    atMs: number,
  ): Promise<boolean> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: tenantKey(instance.tenantId), sk: instanceKey(instance.leaseId, instance.instanceId) },
          UpdateExpression: 'SET #stamp = :at',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#stamp)',
          ExpressionAttributeNames: { '#stamp': stamp },
          ExpressionAttributeValues: { ':at': atMs },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  async instancesByRef(refs: readonly InstanceRef[]): Promise<LeaseInstance[]> {
    const keys = refs.map((ref) => ({
      pk: tenantKey(ref.tenantId),
      sk: instanceKey(ref.leaseId, ref.instanceId),
    }));
    const items = await batchGetAll(this.client, this.tableName, keys, { consistentRead: true });
    return items.map(toInstance);
  }

  /**
   * Keys only from the index (a page at most `limit` long, followed until
   * `limit`): the caller reads each lease as it is now, which also drops one
   * that moved on since the index was written.
   */
  async openLeases(status: OpenLeaseStatus, limit: number): Promise<LeaseRef[]> {
    const refs: LeaseRef[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: OPEN_LEASES_INDEX,
          KeyConditionExpression: 'openStatus = :status',
          ExpressionAttributeValues: { ':status': status },
          Limit: limit - refs.length,
          ExclusiveStartKey: startKey,
        }),
      );
      for (const item of page.Items ?? []) {
        refs.push({
          tenantId: String(item.pk).slice(tenantKey('').length),
          leaseId: String(item.sk).slice(leaseKey('').length),
        });
      }
      startKey = page.LastEvaluatedKey;
    } while (startKey && refs.length < limit);
    return refs;
  }

  /**
   * A count of the tenant's partition of the waiting-leases index, `upTo` keys
   * a query at most (Limit), so the read costs what the cap allows, whatever
   * the tenant's history. One page up to MAX_WAITING_LEASES_CAP; followed if
   * DynamoDB cuts one short.
   */
  async countWaiting(tenantId: string, upTo: number): Promise<number> {
    let counted = 0;
    let startKey: Record<string, unknown> | undefined;
    while (counted < upTo) {
      const page = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: WAITING_LEASES_INDEX,
          KeyConditionExpression: 'waitingTenant = :tenant',
          ExpressionAttributeValues: { ':tenant': tenantId },
          Select: 'COUNT',
          Limit: upTo - counted,
          ExclusiveStartKey: startKey,
        }),
      );
      counted += page.Count ?? 0;
      startKey = page.LastEvaluatedKey;
      if (!startKey) break;
    }
    return counted;
  }

  openInstances(): Promise<LeaseInstance[]> {
    return this.queryOpenInstances();
  }

  /** Reads the open-instance index and keeps the tenant's: it scales with the open fleet, not the tenant's history. */
  openInstancesOf(tenantId: string): Promise<LeaseInstance[]> {
    return this.queryOpenInstances(tenantId);
  }

  /**
   * The open-instance index holds keys only (ticks must not rewrite it), so the
   * instances are read back from the table, 100 a call and consistently: a
   * checkpoint is never older than the last charge.
   */
  private async queryOpenInstances(tenantId?: string): Promise<LeaseInstance[]> {
    const keys = await queryAll(this.client, {
      TableName: this.tableName,
      IndexName: OPEN_METERING_INDEX,
      KeyConditionExpression: 'meteringOpen = :open',
      ExpressionAttributeValues: {
        ':open': METERING_OPEN,
        ...(tenantId === undefined ? {} : { ':pk': tenantKey(tenantId) }),
      },
      ...(tenantId === undefined ? {} : { FilterExpression: 'pk = :pk' }),
      ProjectionExpression: 'pk, sk',
    });
    const items = await batchGetAll(
      this.client,
      this.tableName,
      keys.map(({ pk, sk }) => ({ pk, sk })),
      { consistentRead: true },
    );
    // A bill may have closed between the index read and the table read.
    return items.map(toInstance).filter((instance) => instance.meteringOpen);
  }

  /**
   * The instances of a page of leases in one query, not one a lease: a page is
   * a run of consecutive lease ids, and instance keys sort by their lease's id
   * (`INSTANCE#<leaseId>#<instanceId>`), so the page's instances are exactly
   * the keys between its first and last lease's.
   */
  private async instancesOfPage(
    tenantId: string,
    leases: readonly Lease[],
  ): Promise<Map<string, LeaseInstance[]>> {
    const byLease = new Map<string, LeaseInstance[]>();
    if (leases.length === 0) return byLease;
    const ids = leases.map((lease) => lease.leaseId).sort();
    const items = await queryAll(this.client, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :first AND :last',
      ExpressionAttributeValues: {
        ':pk': tenantKey(tenantId),
        ':first': instancePrefix(ids[0] as string),
        // '~' sorts after every character of an instance id.
        ':last': `${instancePrefix(ids[ids.length - 1] as string)}~`,
      },
      ConsistentRead: true,
    });
    for (const instance of items.map(toInstance)) {
      const list = byLease.get(instance.leaseId);
      if (list) list.push(instance);
      else byLease.set(instance.leaseId, [instance]);
    }
    return byLease;
  }

  private async instancesOf(tenantId: string, leaseId: string): Promise<LeaseInstance[]> {
    const result = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': tenantKey(tenantId), ':prefix': instancePrefix(leaseId) },
        ConsistentRead: true,
      }),
    );
    return (result.Items ?? []).map(toInstance);
  }
}
