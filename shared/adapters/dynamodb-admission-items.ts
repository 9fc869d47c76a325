import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { WaitingLease } from '../domain/admission/admission-pass';
import type { AdmissionClaim, CapacityPool, PoolIdentity, TenantAdmission } from '../domain/admission/claims';
import { type Quota, quotaOf } from '../domain/admission/quota';
import { RENTAL_MODES, type RentalMode } from '../domain/lease';
import type { AdmissionSnapshot, AdmissionStatus } from '../ports/admission-store';
import { queryAll } from './dynamodb-query-all';
import type { Update } from './dynamodb-transactions';

/*
 * The admission table's items (see `TABLES.admission`): their keys, how a
 * lease's queue entry and claim are stored, the reads the store and its
 * commit share, and the counter updates that admissions take and releases
 * give back.
 */

export type Item = Record<string, unknown>;

/** Key layout of the admission table. */
export const admissionLeaseKey = (leaseId: string) => ({ pk: `LEASE#${leaseId}`, sk: 'ADMISSION' });
export const TENANTS = 'TENANTS';
export const CAPACITY = 'CAPACITY';
/** One item per tenant and workload (`historyKey`): its newest lease durations. */
export const HISTORY = 'HISTORY';
export const QUEUE_INDEX = 'queue';
export const QUEUED = 'QUEUED';
/** Admitted leases stay in the queue index under this partition until released: the running list. */
export const ADMITTED = 'ADMITTED';
/** Waiting leases sort by when they joined the queue in the index: zero-padded milliseconds, then the id. */
export const queuedAt = (lease: WaitingLease) =>
  `${String(lease.queuedAtMs).padStart(15, '0')}#${lease.leaseId}`;
export const modeAttribute = (mode: RentalMode) => `gpus_${mode}`;
/**
 * A lease's queue entry and its claim are stored as JSON text, not as maps:
 * DynamoDB Local reads and writes a nested map attribute by attribute, about
 * four times the cost of one string (BENCHMARKS.md, "admission"), and nothing
 * queries inside them. Items written as maps before still read.
 */
export const encoded = (value: WaitingLease | AdmissionClaim) => JSON.stringify(value);
export function decoded<T extends WaitingLease | AdmissionClaim>(stored: unknown): T {
  return (typeof stored === 'string' ? JSON.parse(stored) : stored) as T;
}
/** A lease's item as it joins the queue: listed in the `queue` index under QUEUED, oldest first. */
export const queuedLeaseItem = (lease: WaitingLease): Item => ({
  ...admissionLeaseKey(lease.leaseId),
  lease: encoded(lease),
  status: 'QUEUED' satisfies AdmissionStatus,
  tenantId: lease.tenantId,
  queued: QUEUED,
  queuedAt: queuedAt(lease),
});
export const leaseOf = (item: Item) => decoded<WaitingLease>(item.lease);
export const claimIn = (item: Item) => decoded<AdmissionClaim>(item.claim);
export function tenantOf(item: Item): TenantAdmission {
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

export function poolOf(item: Item): CapacityPool {
  const { pk: _pk, sk: _sk, limitUnits, used, ...identity } = item;
  return { ...(identity as PoolIdentity), limit: limitUnits as number, used: used as number };
}

/** What a group of claims adds to one tenant. */
export interface TenantAdd {
  gpus: number;
  hourlyMicroUsd: number;
  byMode: Partial<Record<RentalMode, number>>;
}

/** What claims add up to, per tenant and per capacity pool. */
export function sumsOf(claims: readonly AdmissionClaim[]) {
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

/** The tenant's counters take `add`, on condition that its quota is the one read and `add` fits under it. */
export function tenantAdmission(
  table: string,
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
    known?.quotaVersion === undefined ? 'attribute_not_exists(quotaVersion)' : 'quotaVersion = :quotaVersion',
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
      TableName: table,
      Key: { pk: TENANTS, sk: tenantId },
      UpdateExpression: `SET ${sets.join(', ')}`,
      ConditionExpression: conditions.join(' AND '),
      ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
      ExpressionAttributeValues: values,
    },
  };
}

/** What the claims took from their tenants' counters and their pools, given back. */
export function givenBack(table: string, claims: readonly AdmissionClaim[]): Update[] {
  const { byTenant, byPool } = sumsOf(claims);
  return [
    ...[...byTenant].map(([tenantId, add]): Update => {
      const modes = Object.entries(add.byMode);
      return {
        Update: {
          TableName: table,
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
          TableName: table,
          Key: { pk: CAPACITY, sk: key },
          UpdateExpression: 'SET used = used - :units',
          ExpressionAttributeValues: { ':units': units },
        },
      }),
    ),
  ];
}

/** Every item of one partition (TENANTS, CAPACITY, HISTORY, INTENT), read consistently. */
export function partitionItems(client: DynamoDBDocumentClient, table: string, pk: string): Promise<Item[]> {
  return queryAll(client, {
    TableName: table,
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': pk },
    ConsistentRead: true,
  });
}

/** A lease's admission item, read consistently. */
export async function admissionLeaseItem(
  client: DynamoDBDocumentClient,
  table: string,
  leaseId: string,
): Promise<Item | undefined> {
  const result = await client.send(
    new GetCommand({ TableName: table, Key: admissionLeaseKey(leaseId), ConsistentRead: true }),
  );
  return result.Item;
}
