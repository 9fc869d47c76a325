import { randomBytes } from 'node:crypto';
import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createTable } from '../../local/bootstrap';
import { ADMITTED, admissionLeaseKey, queuedLeaseItem } from '../../shared/adapters/dynamodb-admission-items';
import { DynamoDbAdmissionStore } from '../../shared/adapters/dynamodb-admission-store';
import { priceCatalog } from '../../shared/catalog';
import { admissionPass, type WaitingLease } from '../../shared/domain/admission/admission-pass';
import { capacityOfPools } from '../../shared/domain/admission/claims';
import type { Quota } from '../../shared/domain/admission/quota';
import type { AdmissionStatus, PoolLimit } from '../../shared/ports/admission-store';
import { TABLES } from '../../shared/resources';
import { quotasOf, runAdmissionPass, usageOf } from '../../shared/usecases/admission/admission-pass';
import { countingClient, writeAll } from './dynamodb';

export interface StorePassSetup {
  readonly queue: readonly WaitingLease[];
  readonly pool: PoolLimit;
  readonly defaultQuota: Quota;
  readonly nowMs: number;
}

type SeededTable = {
  readonly store: DynamoDbAdmissionStore;
  readonly table: string;
  readonly counting: ReturnType<typeof countingClient>;
};

/**
 * Runs `work` on a fresh table holding the setup's queue, enqueued through
 * the store 32 at a time as the API does one lease per request, and deletes
 * the table after: DynamoDB Local keeps every table in one JVM heap, and the
 * passes of later rounds slowed as the tables of earlier ones piled up.
 */
async function onSeededTable<T>(
  endpoint: string,
  setup: StorePassSetup,
  work: (seeded: SeededTable) => Promise<T>,
): Promise<T> {
  const counting = countingClient(endpoint);
  const raw = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const table = `bench-admission-${randomBytes(4).toString('hex')}`;
  await createTable(raw, table, TABLES.admission);
  try {
    const store = new DynamoDbAdmissionStore(counting.documents, table);
    await store.putPoolLimit(setup.pool);
    for (let i = 0; i < setup.queue.length; i += 32) {
      await Promise.all(setup.queue.slice(i, i + 32).map((lease) => store.enqueue(lease)));
    }
    counting.reset();
    return await work({ store, table, counting });
  } finally {
    await raw.send(new DeleteTableCommand({ TableName: table }));
    raw.destroy();
  }
}

/**
 * The real pass: one snapshot, the pure pass, the counters reserved (a few
 * transactions), the leases marked ADMITTED (transactions of 99). Its timer
 * stops when `runAdmissionPass` returns, i.e. when every admitted lease is
 * ADMITTED in the table; that is checked after the timer.
 */
export function storePass(endpoint: string, setup: StorePassSetup) {
  return onSeededTable(endpoint, setup, async ({ store, counting }) => {
    const start = performance.now();
    const run = await runAdmissionPass({
      admission: store,
      catalog: priceCatalog,
      defaultQuota: setup.defaultQuota,
      now: () => setup.nowMs,
    });
    const seconds = (performance.now() - start) / 1000;
    const requests = counting.requests();
    if (!run.settled) throw new Error('the benchmark pass met a conflict with nobody racing it');
    const admitted = run.admitted.map((claim) => claim.leaseId);
    const visible = new Set((await store.claims()).map((claim) => claim.leaseId));
    if (visible.size !== admitted.length || admitted.some((leaseId) => !visible.has(leaseId))) {
      throw new Error(
        `the pass returned ${admitted.length} admissions, the table shows ${visible.size} ADMITTED`,
      );
    }
    return { admitted, seconds, requests };
  });
}

/**
 * The naive pass: the same decisions (the pure pass over the same queue),
 * committed one lease at a time: read the lease, then one conditional write
 * admitting it, sequentially. It keeps tenants' and the fleet's counters in
 * memory and never writes them, so it is cheaper than a correct naive pass
 * would be: the speedup is a lower bound.
 */
export function naivePass(endpoint: string, setup: StorePassSetup) {
  return onSeededTable(endpoint, setup, async ({ store, table, counting }) => {
    const snapshot = await store.snapshot();
    const decided = admissionPass({
      nowMs: setup.nowMs,
      queue: snapshot.queue,
      usage: usageOf(snapshot),
      quotas: quotasOf(snapshot),
      defaultQuota: setup.defaultQuota,
      capacity: capacityOfPools(snapshot.pools),
      catalog: priceCatalog,
    });
    const admit = new Set(decided.admitted.map(({ lease }) => lease.leaseId));
    const order = [
      ...decided.admitted.map(({ lease }) => lease),
      ...decided.queued.map(({ lease }) => lease),
    ];
    counting.reset();
    const admitted: string[] = [];
    const start = performance.now();
    for (const lease of order) {
      const { Item } = await counting.documents.send(
        new GetCommand({ TableName: table, Key: admissionLeaseKey(lease.leaseId), ConsistentRead: true }),
      );
      if (Item?.status !== ('QUEUED' satisfies AdmissionStatus) || !admit.has(lease.leaseId)) continue;
      await counting.documents.send(
        new UpdateCommand({
          TableName: table,
          Key: admissionLeaseKey(lease.leaseId),
          UpdateExpression: 'SET #status = :admitted REMOVE queued, queuedAt',
          ConditionExpression: '#status = :queued',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':admitted': 'ADMITTED' satisfies AdmissionStatus,
            ':queued': 'QUEUED' satisfies AdmissionStatus,
          },
        }),
      );
      admitted.push(lease.leaseId);
    }
    const seconds = (performance.now() - start) / 1000;
    return { admitted, seconds, requests: counting.requests() };
  });
}

/**
 * How a floor pass writes the admitted leases. `transactions`: sequential
 * transactions of 100 updates, the cheapest form here whose writes can carry
 * a condition (conditional PartiQL batches and single conditional updates
 * were slower; BENCHMARKS.md, admission, session 21); a pass that must not
 * admit a lease twice needs one. `batches`: whole items put 25 a call, 16
 * calls at once, the cheapest write of all, which takes no condition.
 */
export type FloorWrite = 'transactions' | 'batches';

/**
 * The least a pass that records each admission on its lease's own item must
 * spend on this emulator, timed like the store's pass: the snapshot that
 * lists the queue, then each admitted lease's item moved to ADMITTED with no
 * condition, no claim, no counters and no intents. The decisions are given,
 * not made. Its speedup over the naive pass is the ceiling of such a design
 * here, whatever it batches.
 */
export function floorPass(
  endpoint: string,
  setup: StorePassSetup,
  admit: readonly string[],
  write: FloorWrite,
) {
  return onSeededTable(endpoint, setup, async ({ store, table, counting }) => {
    const admitted = new Set(admit);
    const start = performance.now();
    const { queue } = await store.snapshot();
    const leases = queue.filter((lease) => admitted.has(lease.leaseId));
    if (write === 'transactions') {
      for (let i = 0; i < leases.length; i += 100) {
        await counting.documents.send(
          new TransactWriteCommand({
            TransactItems: leases.slice(i, i + 100).map((lease) => ({
              Update: {
                TableName: table,
                Key: admissionLeaseKey(lease.leaseId),
                UpdateExpression: 'SET #status = :admitted, queued = :admitted',
                ExpressionAttributeNames: { '#status': 'status' },
                ExpressionAttributeValues: { ':admitted': ADMITTED satisfies AdmissionStatus },
              },
            })),
          }),
        );
      }
    } else {
      await writeAll(
        counting.documents,
        table,
        leases.map((lease) => ({
          ...queuedLeaseItem(lease),
          status: ADMITTED satisfies AdmissionStatus,
          queued: ADMITTED,
        })),
      );
    }
    const seconds = (performance.now() - start) / 1000;
    if (leases.length !== admitted.size) {
      throw new Error(`the snapshot listed ${leases.length} of the ${admitted.size} leases to admit`);
    }
    return { seconds, requests: counting.requests() };
  });
}
