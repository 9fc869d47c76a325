import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { WaitingLease } from '../domain/admission/admission-pass';
import {
  type AdmissionClaim,
  type CapacityPool,
  type PoolIdentity,
  poolKey,
  runningOf,
  type TenantAdmission,
} from '../domain/admission/claims';
import {
  type CompletedLease,
  type DurationSamples,
  type DurationWindow,
  historyKey,
  samplesOfWindows,
  withDuration,
} from '../domain/admission/duration-history';
import type { Quota } from '../domain/admission/quota';
import type { RunningLease } from '../domain/admission/wait-estimate';
import type { Workload } from '../domain/lease';
import type {
  AdmissionSnapshot,
  AdmissionStatus,
  AdmissionStore,
  AdmitOutcome,
  PoolLimit,
} from '../ports/admission-store';
import { DynamoDbAdmissionCommit } from './dynamodb-admission-commit';
import {
  ADMITTED,
  admissionLeaseItem,
  admissionLeaseKey,
  CAPACITY,
  claimIn,
  encoded,
  givenBack,
  HISTORY,
  type Item,
  leaseOf,
  partitionItems,
  poolOf,
  QUEUE_INDEX,
  QUEUED,
  queuedAt,
  queuedLeaseItem,
  TENANTS,
  tenantOf,
} from './dynamodb-admission-items';
import { queryAll } from './dynamodb-query-all';
import type { Update } from './dynamodb-transactions';

/**
 * The admission store on one DynamoDB table: the queue, the tenants' and
 * pools' counters, the admitted leases and the duration history. A pass's
 * admissions are committed by `DynamoDbAdmissionCommit` (reserve, mark,
 * settle); releases and requeues give back what a claim took.
 */
export class DynamoDbAdmissionStore implements AdmissionStore {
  private readonly commit: DynamoDbAdmissionCommit;

  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {
    this.commit = new DynamoDbAdmissionCommit(client, table);
  }

  async enqueue(lease: WaitingLease): Promise<boolean> {
    try {
      await this.client.send(
        new PutCommand({
          TableName: this.table,
          Item: queuedLeaseItem(lease),
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  async snapshot(): Promise<AdmissionSnapshot> {
    const [queue, tenants, pools] = await Promise.all([
      queryAll(this.client, {
        TableName: this.table,
        IndexName: QUEUE_INDEX,
        KeyConditionExpression: 'queued = :queued',
        ExpressionAttributeValues: { ':queued': QUEUED },
      }),
      this.partition(TENANTS),
      this.partition(CAPACITY),
    ]);
    return {
      queue: queue.map(leaseOf),
      tenants: Object.fromEntries(tenants.map((item) => [item.sk as string, tenantOf(item)])),
      pools: pools.map(poolOf),
    };
  }

  admit(
    claims: readonly AdmissionClaim[],
    snapshot: AdmissionSnapshot,
    defaultQuota: Quota,
  ): Promise<AdmitOutcome> {
    return this.commit.admit(claims, snapshot, defaultQuota);
  }

  recover(reservedBeforeMs: number): Promise<AdmissionClaim[]> {
    return this.commit.recover(reservedBeforeMs);
  }

  async release(leaseId: string): Promise<AdmissionClaim | undefined> {
    for (;;) {
      const item = await this.leaseItem(leaseId);
      const status = item?.status as AdmissionStatus | undefined;
      if (status === 'QUEUED') {
        if (await this.leaveQueue(leaseId, 'RELEASED')) return undefined;
        continue;
      }
      if (status !== 'ADMITTED' || !item) return undefined;
      const claim = claimIn(item);
      try {
        await this.client.send(new TransactWriteCommand({ TransactItems: this.releaseItems(claim) }));
        return claim;
      } catch (error) {
        if (!(error instanceof TransactionCanceledException)) throw error;
        // Released by someone else, or a racing admission touched the same counters: look again.
      }
    }
  }

  async status(leaseId: string): Promise<AdmissionStatus | undefined> {
    return (await this.leaseItem(leaseId))?.status as AdmissionStatus | undefined;
  }

  async entry(leaseId: string): Promise<{ status: AdmissionStatus; lease: WaitingLease } | undefined> {
    const item = await this.leaseItem(leaseId);
    return item ? { status: item.status as AdmissionStatus, lease: leaseOf(item) } : undefined;
  }

  async claim(leaseId: string): Promise<AdmissionClaim | undefined> {
    const item = await this.leaseItem(leaseId);
    return item?.status === 'ADMITTED' ? claimIn(item) : undefined;
  }

  async running(): Promise<RunningLease[]> {
    const items = await this.admittedItems();
    return items.map((item) => runningOf(leaseOf(item), claimIn(item)));
  }

  async claims(): Promise<AdmissionClaim[]> {
    return (await this.admittedItems()).map(claimIn);
  }

  async pools(): Promise<CapacityPool[]> {
    return (await this.partition(CAPACITY)).map(poolOf);
  }

  async requeue(leaseId: string, refused: NonNullable<WaitingLease['refused']>): Promise<boolean> {
    for (;;) {
      const item = await this.leaseItem(leaseId);
      if (item?.status !== 'ADMITTED') return false;
      const lease = { ...leaseOf(item), refused };
      const waitAgain: Update = {
        Update: {
          TableName: this.table,
          Key: admissionLeaseKey(leaseId),
          UpdateExpression:
            'SET #status = :queued, lease = :lease, queued = :queued, queuedAt = :queuedAt REMOVE claim',
          ConditionExpression: '#status = :admitted',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':queued': QUEUED,
            ':admitted': ADMITTED,
            ':lease': encoded(lease),
            ':queuedAt': queuedAt(lease),
          },
        },
      };
      try {
        await this.client.send(
          new TransactWriteCommand({
            TransactItems: [waitAgain, ...givenBack(this.table, [claimIn(item)])],
          }),
        );
        return true;
      } catch (error) {
        if (!(error instanceof TransactionCanceledException)) throw error;
        // Released meanwhile, or a racing admission touched the same counters: look again.
      }
    }
  }

  /**
   * One transaction: the lease's own item is marked (on condition it is not
   * yet), and its tenant's and workload's window is rewritten with the
   * duration added, on condition of the version read. A lost race on the
   * window is read and tried again; a lease marked already records nothing.
   */
  async recordDuration(completed: CompletedLease & { readonly leaseId: string }): Promise<boolean> {
    const key = { pk: HISTORY, sk: historyKey(completed.tenantId, completed.workload) };
    for (;;) {
      const [lease, window] = await Promise.all([
        this.leaseItem(completed.leaseId),
        this.client.send(new GetCommand({ TableName: this.table, Key: key, ConsistentRead: true })),
      ]);
      if (!lease || lease.durationRecorded === true) return false;
      const version = window.Item?.version as number | undefined;
      const durationsMs = (window.Item?.durationsMs as number[] | undefined) ?? [];
      try {
        await this.client.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: this.table,
                  Key: admissionLeaseKey(completed.leaseId),
                  UpdateExpression: 'SET durationRecorded = :true',
                  ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(durationRecorded)',
                  ExpressionAttributeValues: { ':true': true },
                },
              },
              {
                Put: {
                  TableName: this.table,
                  Item: {
                    ...key,
                    tenantId: completed.tenantId,
                    workload: completed.workload,
                    durationsMs: withDuration(durationsMs, completed.durationMs),
                    version: (version ?? 0) + 1,
                  },
                  ...(version === undefined
                    ? { ConditionExpression: 'attribute_not_exists(pk)' }
                    : {
                        ConditionExpression: 'version = :version',
                        ExpressionAttributeValues: { ':version': version },
                      }),
                },
              },
            ],
          }),
        );
        return true;
      } catch (error) {
        if (!(error instanceof TransactionCanceledException)) throw error;
        // Recorded meanwhile (the next read says so), or another lease's duration took the window first.
      }
    }
  }

  async durations(): Promise<DurationSamples> {
    const items = await this.partition(HISTORY);
    return samplesOfWindows(
      items.map(
        (item): DurationWindow => ({
          tenantId: item.tenantId as string,
          workload: item.workload as Workload,
          durationsMs: item.durationsMs as number[],
        }),
      ),
    );
  }

  timeOut(leaseId: string): Promise<boolean> {
    return this.leaveQueue(leaseId, 'TIMED_OUT');
  }

  async putQuota(tenantId: string, quota: Quota): Promise<void> {
    await this.client.send(
      new UpdateCommand({
        TableName: this.table,
        Key: { pk: TENANTS, sk: tenantId },
        UpdateExpression: 'SET quota = :quota ADD quotaVersion :one',
        ExpressionAttributeValues: { ':quota': quota, ':one': 1 },
      }),
    );
  }

  async tenant(tenantId: string): Promise<TenantAdmission | undefined> {
    const result = await this.client.send(
      new GetCommand({ TableName: this.table, Key: { pk: TENANTS, sk: tenantId }, ConsistentRead: true }),
    );
    return result.Item ? tenantOf(result.Item) : undefined;
  }

  async putPoolLimit(pool: PoolLimit): Promise<void> {
    const { limit, ...rest } = pool;
    const identity = rest as PoolIdentity;
    const fields = Object.entries(identity);
    await this.client.send(
      new UpdateCommand({
        TableName: this.table,
        Key: { pk: CAPACITY, sk: poolKey(identity) },
        UpdateExpression: `SET ${[
          ...fields.map(([name]) => `#${name} = :${name}`),
          'limitUnits = :limit',
          'used = if_not_exists(used, :zero)',
        ].join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(fields.map(([name]) => [`#${name}`, name])),
        ExpressionAttributeValues: {
          ...Object.fromEntries(fields.map(([name, value]) => [`:${name}`, value])),
          ':limit': limit,
          ':zero': 0,
        },
      }),
    );
  }

  private partition(pk: string): Promise<Item[]> {
    return partitionItems(this.client, this.table, pk);
  }

  private admittedItems(): Promise<Item[]> {
    return queryAll(this.client, {
      TableName: this.table,
      IndexName: QUEUE_INDEX,
      KeyConditionExpression: 'queued = :admitted',
      ExpressionAttributeValues: { ':admitted': ADMITTED },
    });
  }

  private leaseItem(leaseId: string): Promise<Item | undefined> {
    return admissionLeaseItem(this.client, this.table, leaseId);
  }

  private async leaveQueue(leaseId: string, status: AdmissionStatus): Promise<boolean> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: admissionLeaseKey(leaseId),
          UpdateExpression: 'SET #status = :status REMOVE queued, queuedAt',
          ConditionExpression: '#status = :queued',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':status': status, ':queued': 'QUEUED' satisfies AdmissionStatus },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  private releaseItems(claim: AdmissionClaim): Update[] {
    return [
      {
        Update: {
          TableName: this.table,
          Key: admissionLeaseKey(claim.leaseId),
          UpdateExpression: 'SET #status = :released REMOVE queued, queuedAt',
          ConditionExpression: '#status = :admitted',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':released': 'RELEASED' satisfies AdmissionStatus,
            ':admitted': 'ADMITTED' satisfies AdmissionStatus,
          },
        },
      },
      ...givenBack(this.table, [claim]),
    ];
  }
}
