import { randomUUID } from 'node:crypto';
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
import { type Quota, quotaOf } from '../domain/admission/quota';
import type { RunningLease } from '../domain/admission/wait-estimate';
import { RENTAL_MODES, type RentalMode, type Workload } from '../domain/lease';
import type {
  AdmissionSnapshot,
  AdmissionStatus,
  AdmissionStore,
  AdmitOutcome,
  PoolLimit,
} from '../ports/admission-store';
import { queryAll } from './dynamodb-query-all';

type Item = Record<string, unknown>;
type Update = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

/** Key layout of the admission table (see `TABLES.admission`). */
export const admissionLeaseKey = (leaseId: string) => ({ pk: `LEASE#${leaseId}`, sk: 'ADMISSION' });
const TENANTS = 'TENANTS';
const CAPACITY = 'CAPACITY';
/** One item per tenant and workload (`historyKey`): its newest lease durations. */
const HISTORY = 'HISTORY';
const QUEUE_INDEX = 'queue';
const QUEUED = 'QUEUED';
/** Admitted leases stay in the queue index under this partition until released: the running list. */
const ADMITTED = 'ADMITTED';
/** Waiting leases sort by when they joined the queue in the index: zero-padded milliseconds, then the id. */
const queuedAt = (lease: WaitingLease) => `${String(lease.queuedAtMs).padStart(15, '0')}#${lease.leaseId}`;
const modeAttribute = (mode: RentalMode) => `gpus_${mode}`;
/**
 * A lease's queue entry and its claim are stored as JSON text, not as maps:
 * DynamoDB Local reads and writes a nested map attribute by attribute, about
 * four times the cost of one string (BENCHMARKS.md, "admission"), and nothing
 * queries inside them. Items written as maps before still read.
 */
const encoded = (value: WaitingLease | AdmissionClaim) => JSON.stringify(value);
function decoded<T extends WaitingLease | AdmissionClaim>(stored: unknown): T {
  return (typeof stored === 'string' ? JSON.parse(stored) : stored) as T;
}
const leaseOf = (item: Item) => decoded<WaitingLease>(item.lease);
const claimIn = (item: Item) => decoded<AdmissionClaim>(item.claim);
/** A transaction takes at most 100 items. */
const MAX_TRANSACTION_ITEMS = 100;
/** Reservations a pass has made and not yet settled: one item each, its claims as JSON. */
const INTENTS = 'INTENT';
/** Claims of one intent, as JSON, stay well under DynamoDB's 400 KB item limit. */
const MAX_INTENT_BYTES = 300_000;
/** A transaction carries at most 4 MB: its intents' claims stay under it. */
const MAX_INTENTS_PER_TRANSACTION = 10;
const intentKey = (intentId: string) => ({ pk: INTENTS, sk: intentId });

/** Counters reserved for some admissions, with the claims they are for, until every lease is marked or given back. */
interface Intent {
  readonly intentId: string;
  readonly claims: readonly AdmissionClaim[];
}

function tenantOf(item: Item): TenantAdmission {
  const gpusByMode: Partial<Record<RentalMode, number>> = {};
  for (const mode of RENTAL_MODES) {
    const gpus = item[modeAttribute(mode)];
    if (typeof gpus === 'number') gpusByMode[mode] = gpus;
  }
  return {
    tenantId: item.sk as string,
    usage: {
      gpus: (item.gpus as number | undefined) ?? 0,
      hourlyMicroUsd: (item.hourlyMicroUsd as number | undefined) ?? 0,
      gpusByMode,
    },
    quota: item.quota as Quota | undefined,
    quotaVersion: item.quotaVersion as number | undefined,
  };
}

function poolOf(item: Item): CapacityPool {
  const { pk: _pk, sk: _sk, limitUnits, used, ...identity } = item;
  return { ...(identity as PoolIdentity), limit: limitUnits as number, used: used as number };
}

/** What a group of claims adds to one tenant. */
interface TenantAdd {
  gpus: number;
  hourlyMicroUsd: number;
  byMode: Partial<Record<RentalMode, number>>;
}

/** What claims add up to, per tenant and per capacity pool. */
function sumsOf(claims: readonly AdmissionClaim[]) {
  const byTenant = new Map<string, TenantAdd>();
  const byPool = new Map<string, number>();
  for (const claim of claims) {
    const add = byTenant.get(claim.tenantId) ?? { gpus: 0, hourlyMicroUsd: 0, byMode: {} };
    add.gpus += claim.gpus;
    add.hourlyMicroUsd += claim.hourlyMicroUsd;
    add.byMode[claim.mode] = (add.byMode[claim.mode] ?? 0) + claim.gpus;
    byTenant.set(claim.tenantId, add);
    if (claim.pool) byPool.set(claim.pool.key, (byPool.get(claim.pool.key) ?? 0) + claim.pool.units);
  }
  return { byTenant, byPool };
}

/**
 * The admission store on one DynamoDB table. Admissions are reserved, then
 * marked. One transaction reserves a chunk's counters: each tenant's take
 * the chunk's sum (conditional on the quota read being the quota now and the
 * sum fitting under it), each capacity pool its units (likewise), and an
 * intent item records the chunk's claims. Conditions compare the stored use
 * with the room left, so a release in between (which only lowers use) never
 * makes a pass fail, while another pass's admission, a quota or limit change
 * does. Then the leases move from QUEUED to ADMITTED in transactions of 99,
 * each also checking that the intent is still open; a lease that left the
 * queue meanwhile (cancelled, timed out, admitted by a racing pass) is not
 * marked. Last the intent is closed, what it reserved for the leases it did
 * not mark is given back, and it is deleted, in one transaction: exactly
 * once, whoever settles it. An intent whose pass stopped midway is settled
 * the same way by a later pass (`recover`).
 *
 * Why not one transaction of leases and counters: DynamoDB Local spends
 * about 5 ms on each conditional counter update in a transaction and 2-3 ms
 * on a lease's, so counters charged once per pass, not once per chunk of
 * 100 items, are most of the gain (BENCHMARKS.md, "admission").
 */
export class DynamoDbAdmissionStore implements AdmissionStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async enqueue(lease: WaitingLease): Promise<boolean> {
    try {
      await this.client.send(
        new PutCommand({
          TableName: this.table,
          Item: {
            ...admissionLeaseKey(lease.leaseId),
            lease: encoded(lease),
            status: 'QUEUED' satisfies AdmissionStatus,
            tenantId: lease.tenantId,
            queued: QUEUED,
            queuedAt: queuedAt(lease),
          },
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

  async admit(
    claims: readonly AdmissionClaim[],
    snapshot: AdmissionSnapshot,
    defaultQuota: Quota,
  ): Promise<AdmitOutcome> {
    const committed: AdmissionClaim[] = [];
    for (const chunk of reservationsOf(claims)) {
      const intents = chunk.map((part): Intent => ({ intentId: randomUUID(), claims: part }));
      try {
        await this.client.send(
          new TransactWriteCommand({ TransactItems: this.reservation(intents, snapshot, defaultQuota) }),
        );
      } catch (error) {
        if (error instanceof TransactionCanceledException) return { committed, conflicted: true };
        throw error;
      }
      for (const intent of intents) committed.push(...(await this.settle(intent)));
    }
    return { committed, conflicted: false };
  }

  async recover(reservedBeforeMs: number): Promise<AdmissionClaim[]> {
    const stale = (await this.partition(INTENTS)).filter((item) => (item.atMs as number) < reservedBeforeMs);
    const admitted: AdmissionClaim[] = [];
    for (const item of stale) {
      const claims = JSON.parse(item.claims as string) as AdmissionClaim[];
      admitted.push(...(await this.settle({ intentId: item.sk as string, claims })));
    }
    return admitted;
  }

  /**
   * Marks the intent's leases, closes it, and gives back what it reserved for
   * the leases no settler marked. Returns the claims of the leases it admitted.
   */
  private async settle(intent: Intent): Promise<AdmissionClaim[]> {
    const marked = new Set<string>();
    for (let i = 0; i < intent.claims.length; i += MAX_TRANSACTION_ITEMS - 1) {
      const batch = intent.claims.slice(i, i + MAX_TRANSACTION_ITEMS - 1);
      if ((await this.mark(intent.intentId, batch, marked)) === 'closed') break;
    }
    // Closed, no settler marks a lease any more: who holds a reservation is settled.
    await this.closeIntent(intent.intentId);
    const unsure = intent.claims.filter((claim) => !marked.has(claim.leaseId));
    const items = await Promise.all(unsure.map((claim) => this.leaseItem(claim.leaseId)));
    const markedElsewhere = new Set(
      items.flatMap((item) =>
        item && (item.admittedBy as Set<string> | undefined)?.has(intent.intentId)
          ? [leaseOf(item).leaseId]
          : [],
      ),
    );
    const lost = unsure.filter((claim) => !markedElsewhere.has(claim.leaseId));
    try {
      await this.client.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Delete: {
                TableName: this.table,
                Key: intentKey(intent.intentId),
                ConditionExpression: 'attribute_exists(pk)',
              },
            },
            ...this.givenBack(lost),
          ],
        }),
      );
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      // Another settler deleted it, and gave back the same leases' reservations.
    }
    return intent.claims.filter((claim) => !lost.some((gone) => gone.leaseId === claim.leaseId));
  }

  /**
   * QUEUED → ADMITTED for a batch, on condition that the intent is open; a
   * lease that left the queue is left out and the rest tried again.
   */
  private async mark(
    intentId: string,
    batch: readonly AdmissionClaim[],
    marked: Set<string>,
  ): Promise<'closed' | 'done'> {
    const open: Update = {
      ConditionCheck: {
        TableName: this.table,
        Key: intentKey(intentId),
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(closed)',
      },
    };
    try {
      await this.client.send(
        new TransactWriteCommand({
          TransactItems: [open, ...batch.map((claim) => this.markItem(intentId, claim))],
        }),
      );
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const failed = (error.CancellationReasons ?? []).map(
        (reason) => reason.Code === 'ConditionalCheckFailed',
      );
      if (failed[0]) return 'closed';
      const rest = batch.filter((_, i) => !failed[i + 1]);
      if (rest.length === batch.length) throw error;
      return rest.length === 0 ? 'done' : this.mark(intentId, rest, marked);
    }
    for (const claim of batch) marked.add(claim.leaseId);
    return 'done';
  }

  private markItem(intentId: string, claim: AdmissionClaim): Update {
    return {
      Update: {
        TableName: this.table,
        Key: admissionLeaseKey(claim.leaseId),
        // `admittedBy` stays through release and requeue: the intent's settlers know it marked this lease.
        UpdateExpression:
          'SET #status = :admitted, claim = :claim, queued = :admitted ADD admittedBy :intents',
        ConditionExpression: '#status = :queued AND NOT contains(admittedBy, :intentId)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':admitted': 'ADMITTED' satisfies AdmissionStatus,
          ':queued': 'QUEUED' satisfies AdmissionStatus,
          ':claim': encoded(claim),
          ':intents': new Set([intentId]),
          ':intentId': intentId,
        },
      },
    };
  }

  private async closeIntent(intentId: string): Promise<void> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: intentKey(intentId),
          UpdateExpression: 'SET closed = :true',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':true': true },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      // Settled already by another pass.
    }
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
            TransactItems: [waitAgain, ...this.givenBack([claimIn(item)])],
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
    return queryAll(this.client, {
      TableName: this.table,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ConsistentRead: true,
    });
  }

  private admittedItems(): Promise<Item[]> {
    return queryAll(this.client, {
      TableName: this.table,
      IndexName: QUEUE_INDEX,
      KeyConditionExpression: 'queued = :admitted',
      ExpressionAttributeValues: { ':admitted': ADMITTED },
    });
  }

  private async leaseItem(leaseId: string): Promise<Item | undefined> {
    const result = await this.client.send(
      new GetCommand({ TableName: this.table, Key: admissionLeaseKey(leaseId), ConsistentRead: true }),
    );
    return result.Item;
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

  /** The chunk's counters, conditional on fitting, and its intents, in one transaction. */
  private reservation(
    intents: readonly Intent[],
    snapshot: AdmissionSnapshot,
    defaultQuota: Quota,
  ): Update[] {
    const { byTenant, byPool } = sumsOf(intents.flatMap((intent) => intent.claims));
    const pools = new Map(snapshot.pools.map((pool) => [poolKey(pool), pool]));
    return [
      ...intents.map(
        (intent): Update => ({
          Put: {
            TableName: this.table,
            Item: {
              ...intentKey(intent.intentId),
              // The pass's instant, which its claims carry: `recover` settles intents older than a pass lasts.
              atMs: Math.max(...intent.claims.map((claim) => claim.admittedAtMs ?? 0)),
              claims: JSON.stringify(intent.claims),
            },
          },
        }),
      ),
      ...[...byTenant].map(([tenantId, add]) => this.tenantAdmission(tenantId, add, snapshot, defaultQuota)),
      ...[...byPool].map(([key, units]) => {
        const pool = pools.get(key) as CapacityPool;
        return {
          Update: {
            TableName: this.table,
            Key: { pk: CAPACITY, sk: key },
            UpdateExpression: 'SET used = used + :units',
            ConditionExpression: 'limitUnits = :limit AND used <= :room',
            ExpressionAttributeValues: { ':units': units, ':limit': pool.limit, ':room': pool.limit - units },
          },
        };
      }),
    ];
  }

  /** The tenant's counters take `add`, on condition that its quota is the one read and `add` fits under it. */
  private tenantAdmission(
    tenantId: string,
    add: TenantAdd,
    snapshot: AdmissionSnapshot,
    defaultQuota: Quota,
  ): Update {
    const known = snapshot.tenants[tenantId];
    const quota = known?.quota ?? quotaOf({}, tenantId, defaultQuota);
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = {
      ':zero': 0,
      ':gpus': add.gpus,
      ':hourly': add.hourlyMicroUsd,
      ':gpuRoom': quota.maxGpus - add.gpus,
      ':hourlyRoom': quota.maxHourlyMicroUsd - add.hourlyMicroUsd,
    };
    const sets = [
      'gpus = if_not_exists(gpus, :zero) + :gpus',
      'hourlyMicroUsd = if_not_exists(hourlyMicroUsd, :zero) + :hourly',
    ];
    const conditions = [
      known?.quotaVersion === undefined
        ? 'attribute_not_exists(quotaVersion)'
        : 'quotaVersion = :quotaVersion',
      '(attribute_not_exists(gpus) OR gpus <= :gpuRoom)',
      '(attribute_not_exists(hourlyMicroUsd) OR hourlyMicroUsd <= :hourlyRoom)',
    ];
    if (known?.quotaVersion !== undefined) values[':quotaVersion'] = known.quotaVersion;
    RENTAL_MODES.forEach((mode, i) => {
      const gpus = add.byMode[mode];
      if (gpus === undefined) return;
      names[`#m${i}`] = modeAttribute(mode);
      values[`:m${i}`] = gpus;
      sets.push(`#m${i} = if_not_exists(#m${i}, :zero) + :m${i}`);
      const cap = quota.maxGpusByMode[mode];
      if (cap === undefined) return;
      values[`:m${i}Room`] = cap - gpus;
      conditions.push(`(attribute_not_exists(#m${i}) OR #m${i} <= :m${i}Room)`);
    });
    return {
      Update: {
        TableName: this.table,
        Key: { pk: TENANTS, sk: tenantId },
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: conditions.join(' AND '),
        ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
        ExpressionAttributeValues: values,
      },
    };
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
      ...this.givenBack([claim]),
    ];
  }

  /** What the claims took from their tenants' counters and their pools, given back. */
  private givenBack(claims: readonly AdmissionClaim[]): Update[] {
    const { byTenant, byPool } = sumsOf(claims);
    return [
      ...[...byTenant].map(([tenantId, add]): Update => {
        const modes = Object.entries(add.byMode);
        return {
          Update: {
            TableName: this.table,
            Key: { pk: TENANTS, sk: tenantId },
            UpdateExpression: `SET ${[
              'gpus = gpus - :gpus',
              'hourlyMicroUsd = hourlyMicroUsd - :hourly',
              ...modes.map((_, i) => `#m${i} = #m${i} - :m${i}`),
            ].join(', ')}`,
            ExpressionAttributeNames: Object.fromEntries(
              modes.map(([mode], i) => [`#m${i}`, modeAttribute(mode as RentalMode)]),
            ),
            ExpressionAttributeValues: {
              ':gpus': add.gpus,
              ':hourly': add.hourlyMicroUsd,
              ...Object.fromEntries(modes.map(([, gpus], i) => [`:m${i}`, gpus])),
            },
          },
        };
      }),
      ...[...byPool].map(
        ([key, units]): Update => ({
          Update: {
            TableName: this.table,
            Key: { pk: CAPACITY, sk: key },
            UpdateExpression: 'SET used = used - :units',
            ExpressionAttributeValues: { ':units': units },
          },
        }),
      ),
    ];
  }
}

/**
 * The claims as reservation transactions, each a list of intents: grouped by
 * tenant (in the order of each tenant's first claim), so that a tenant's
 * counters are charged once for as many of its claims as fit, then cut so
 * that a transaction's tenants, pools and intents are at most 100 items and
 * MAX_INTENTS_PER_TRANSACTION intents, and an intent's claims one item.
 */
function reservationsOf(claims: readonly AdmissionClaim[]): AdmissionClaim[][][] {
  const byTenant = new Map<string, AdmissionClaim[]>();
  for (const claim of claims) byTenant.set(claim.tenantId, [...(byTenant.get(claim.tenantId) ?? []), claim]);
  const chunks: AdmissionClaim[][][] = [];
  let intents: AdmissionClaim[][] = [[]];
  let bytes = 0;
  let tenants = new Set<string>();
  let pools = new Set<string>();
  for (const claim of [...byTenant.values()].flat()) {
    const size = JSON.stringify(claim).length + 1;
    const current = intents[intents.length - 1] as AdmissionClaim[];
    const anotherIntent = current.length > 0 && bytes + size > MAX_INTENT_BYTES;
    const items =
      tenants.size +
      (tenants.has(claim.tenantId) ? 0 : 1) +
      pools.size +
      (claim.pool && !pools.has(claim.pool.key) ? 1 : 0) +
      intents.length +
      (anotherIntent ? 1 : 0);
    const full =
      items > MAX_TRANSACTION_ITEMS || (anotherIntent && intents.length >= MAX_INTENTS_PER_TRANSACTION);
    if (full && current.length > 0) {
      chunks.push(intents);
      intents = [[]];
      bytes = 0;
      tenants = new Set();
      pools = new Set();
    } else if (anotherIntent) {
      intents.push([]);
      bytes = 0;
    }
    (intents[intents.length - 1] as AdmissionClaim[]).push(claim);
    bytes += size;
    tenants.add(claim.tenantId);
    if (claim.pool) pools.add(claim.pool.key);
  }
  if ((intents[0] as AdmissionClaim[]).length > 0) chunks.push(intents);
  return chunks;
}
