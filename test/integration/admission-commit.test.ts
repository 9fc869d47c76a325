import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { admissionLeaseKey } from '../../shared/adapters/dynamodb-admission-items';
import { DynamoDbAdmissionStore } from '../../shared/adapters/dynamodb-admission-store';
import { priceCatalog } from '../../shared/catalog';
import type { WaitingLease } from '../../shared/domain/admission/admission-pass';
import { DEFAULT_QUOTA } from '../../shared/domain/admission/quota';
import {
  RESERVATION_RECOVERY_AFTER_MS,
  runAdmissionPass,
} from '../../shared/usecases/admission/admission-pass';
import { localDynamoDb } from '../support/admission';
import { emulatorEndpoints } from '../support/emulators';

// The admission commit on DynamoDB Local (reserve, mark, settle): a pass stopped
// or overtaken between its steps, injected at the store's requests.
const NOW = Date.parse('2031-05-05T12:00:00Z');
const TYPE = 'p3.2xlarge';
const VCPUS = 8;
const HOURLY = priceCatalog.onDemandMicroPerHour(TYPE, 'us-east-1');

type Sent = { readonly input: { TransactItems?: Record<string, { Key?: Record<string, string> }>[] } };
/**
 * Which step of the commit a request is: the reservation puts the intents; a
 * mark moves leases, checking its intent open (the slow path) or deleting it
 * (the common case, marking and settling at once); settling deletes the
 * intent and gives back what nobody holds.
 */
const stepOf = (command: Sent) => {
  const [first, second] = command.input.TransactItems ?? [];
  if (first?.Put) return 'reserve';
  if (first?.ConditionCheck) return 'mark';
  if (first?.Delete?.Key?.pk === 'INTENT') {
    return second?.Update?.Key?.pk?.startsWith('LEASE#') ? 'mark' : 'settle';
  }
  return 'other';
};

class Stopped extends Error {}

async function setUp(gpusOfFleet: number) {
  const dynamo = localDynamoDb(emulatorEndpoints().dynamodb);
  const table = await dynamo.freshAdmissionTable();
  const store = new DynamoDbAdmissionStore(dynamo.documents, table);
  await store.putPoolLimit({
    kind: 'vcpu',
    region: 'us-east-1',
    family: 'P',
    market: 'on-demand',
    limit: gpusOfFleet * VCPUS,
  });
  /** The same table through a client whose requests `before` sees first (and may stop, as a pass that dies). */
  const interrupted = (before: (step: ReturnType<typeof stepOf>) => Promise<void> | void) =>
    new DynamoDbAdmissionStore(
      {
        send: async (command: Sent) => {
          await before(stepOf(command));
          return dynamo.documents.send(command as never);
        },
      } as never,
      table,
    );
  const deps = (admission: DynamoDbAdmissionStore, atMs = NOW) => ({
    admission,
    catalog: priceCatalog,
    defaultQuota: { ...DEFAULT_QUOTA, maxGpus: 100 },
    now: () => atMs,
  });
  const status = async (leaseId: string) =>
    (
      await dynamo.documents.send(
        new GetCommand({ TableName: table, Key: admissionLeaseKey(leaseId), ConsistentRead: true }),
      )
    ).Item?.status;
  const intents = async () =>
    (
      await dynamo.documents.send(
        new QueryCommand({
          TableName: table,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': 'INTENT' },
          ConsistentRead: true,
        }),
      )
    ).Items ?? [];
  /** What the counters say is held, against what the admitted leases hold. */
  const held = async () => {
    const [snapshot, claims] = await Promise.all([store.snapshot(), store.claims()]);
    return {
      tenantGpus: Object.values(snapshot.tenants).reduce((sum, tenant) => sum + tenant.usage.gpus, 0),
      poolUnits: snapshot.pools[0]?.used,
      claimedGpus: claims.reduce((sum, claim) => sum + claim.gpus, 0),
      claimedUnits: claims.reduce((sum, claim) => sum + (claim.pool?.units ?? 0), 0),
    };
  };
  return { store, interrupted, deps, status, intents, held };
}

const waiting = (i: number, tenantId = 'acme'): WaitingLease => ({
  leaseId: `lease-${i}`,
  tenantId,
  workload: 'training',
  gpus: 1,
  candidates: [
    { region: 'us-east-1', instanceType: TYPE, instances: 1, mode: 'on-demand', hourlyMicroUsd: HOURLY },
  ],
  priority: 500,
  queuedAtMs: NOW - 1_000 + i,
  maxWaitMinutes: 600,
});

async function enqueue(store: DynamoDbAdmissionStore, count: number, tenantOf = (_i: number) => 'acme') {
  for (let i = 0; i < count; i++) await store.enqueue(waiting(i, tenantOf(i)));
}

describe('the admission commit on DynamoDB Local', () => {
  it('a pass that stops between reserving and marking is settled by the next wide pass, once', async () => {
    const t = await setUp(2);
    await enqueue(t.store, 3);
    const dying = t.interrupted((step) => {
      if (step === 'mark') throw new Stopped('the pass died after its reservation');
    });
    await expect(runAdmissionPass(t.deps(dying))).rejects.toThrow(Stopped);
    // Reserved, not marked: the counters hold two GPUs, the leases still wait.
    expect(await t.held()).toMatchObject({ tenantGpus: 2, poolUnits: 2 * VCPUS, claimedGpus: 0 });
    expect(await t.status('lease-0')).toBe('QUEUED');

    // A pass before the reservation is stale leaves it to its (maybe live) pass and admits nothing over it.
    const early = await runAdmissionPass(t.deps(t.store, NOW + 60_000));
    expect(early.admitted).toEqual([]);

    const later = await runAdmissionPass(t.deps(t.store, NOW + RESERVATION_RECOVERY_AFTER_MS + 1));
    expect(later.admitted.map((claim) => claim.leaseId).sort()).toEqual(['lease-0', 'lease-1']);
    expect(await t.status('lease-0')).toBe('ADMITTED');
    expect(await t.status('lease-1')).toBe('ADMITTED');
    expect(await t.status('lease-2')).toBe('QUEUED');
    expect(await t.held()).toEqual({ tenantGpus: 2, poolUnits: 2 * VCPUS, claimedGpus: 2, claimedUnits: 16 });
    expect(await t.intents()).toEqual([]);

    const again = await runAdmissionPass(t.deps(t.store, NOW + 2 * RESERVATION_RECOVERY_AFTER_MS));
    expect(again.admitted).toEqual([]);
    expect(await t.held()).toMatchObject({ tenantGpus: 2, poolUnits: 2 * VCPUS });
  });

  it('a pass that stops after marking, before settling, is settled without counting its leases twice', async () => {
    const t = await setUp(4);
    await enqueue(t.store, 4);
    // A lease cancelled after the pass read the queue sends it down the slow path: mark, close, settle.
    const dying = t.interrupted(async (step) => {
      if (step === 'reserve') await t.store.release('lease-3');
      if (step === 'settle') throw new Stopped('the pass died after its marks');
    });
    await expect(runAdmissionPass(t.deps(dying))).rejects.toThrow(Stopped);
    expect(await t.status('lease-2')).toBe('ADMITTED');
    expect(await t.status('lease-3')).toBe('RELEASED');
    expect(await t.intents()).toHaveLength(1);
    expect(await t.held()).toMatchObject({ tenantGpus: 4, claimedGpus: 3 });

    // Two passes settle it at once (a retried delivery and the schedule): it is counted once.
    const runs = await Promise.all(
      [1, 2].map(() => runAdmissionPass(t.deps(t.store, NOW + RESERVATION_RECOVERY_AFTER_MS + 1))),
    );
    // Both may return the recovered claims for hand-over; hand-over moves a lease once (QUEUED → PENDING).
    expect(new Set(runs.flatMap((run) => run.admitted.map((claim) => claim.leaseId)))).toEqual(
      new Set(['lease-0', 'lease-1', 'lease-2']),
    );
    expect(await t.held()).toEqual({ tenantGpus: 3, poolUnits: 3 * VCPUS, claimedGpus: 3, claimedUnits: 24 });
    expect(await t.intents()).toEqual([]);
  });

  it('settles a stopped pass twice at once from its reservation alone, counting each lease once', async () => {
    const t = await setUp(4);
    await enqueue(t.store, 3);
    const dying = t.interrupted((step) => {
      if (step === 'mark') throw new Stopped('the pass died after its reservation');
    });
    await expect(runAdmissionPass(t.deps(dying))).rejects.toThrow(Stopped);
    await Promise.all(
      [1, 2].map(() => runAdmissionPass(t.deps(t.store, NOW + RESERVATION_RECOVERY_AFTER_MS + 1))),
    );
    expect(await t.held()).toEqual({ tenantGpus: 3, poolUnits: 3 * VCPUS, claimedGpus: 3, claimedUnits: 24 });
    for (const i of [0, 1, 2]) expect(await t.status(`lease-${i}`)).toBe('ADMITTED');
    expect(await t.intents()).toEqual([]);
  });

  it('a lease cancelled or timed out between reservation and mark is not admitted, and its reservation returns', async () => {
    const t = await setUp(4);
    await enqueue(t.store, 3);
    let cancelled = false;
    const overtaken = t.interrupted(async (step) => {
      if (step !== 'mark' || cancelled) return;
      cancelled = true;
      await t.store.release('lease-1');
      await t.store.timeOut('lease-2');
    });
    const run = await runAdmissionPass(t.deps(overtaken));
    expect(run.admitted.map((claim) => claim.leaseId)).toEqual(['lease-0']);
    expect(await t.status('lease-1')).toBe('RELEASED');
    expect(await t.status('lease-2')).toBe('TIMED_OUT');
    expect(await t.held()).toEqual({ tenantGpus: 1, poolUnits: VCPUS, claimedGpus: 1, claimedUnits: 8 });
    expect(await t.intents()).toEqual([]);
  });

  it('settles a pass of several intents at once: leases cancelled in any of them hold nothing, the rest are admitted once', async () => {
    const t = await setUp(300);
    // 250 leases of two tenants: three intents of at most 99, marked concurrently.
    await enqueue(t.store, 250, (i) => (i < 130 ? 'acme' : 'globex'));
    const gone = ['lease-5', 'lease-120', 'lease-249'];
    let marks = 0;
    // Cancelled after the pass read the queue, before it reserved: every intent's marks find them gone.
    const overtaken = t.interrupted(async (step) => {
      if (step === 'reserve') for (const leaseId of gone) await t.store.release(leaseId);
      if (step === 'mark') marks += 1;
    });
    const unbounded = { ...DEFAULT_QUOTA, maxGpus: 1_000, maxHourlyMicroUsd: Number.MAX_SAFE_INTEGER };
    const run = await runAdmissionPass({ ...t.deps(overtaken), defaultQuota: unbounded });
    const expected = Array.from({ length: 250 }, (_, i) => `lease-${i}`).filter((id) => !gone.includes(id));
    expect(run.settled).toBe(true);
    expect(run.admitted.map((claim) => claim.leaseId).sort()).toEqual(expected.sort());
    expect(marks).toBeGreaterThanOrEqual(3);
    for (const leaseId of gone) expect(await t.status(leaseId)).toBe('RELEASED');
    expect(await t.held()).toEqual({
      tenantGpus: 247,
      poolUnits: 247 * VCPUS,
      claimedGpus: 247,
      claimedUnits: 247 * VCPUS,
    });
    expect(await t.intents()).toEqual([]);
  });

  it('a pass that runs between another pass reservation and its marks never admits over the capacity', async () => {
    const t = await setUp(3);
    await enqueue(t.store, 6, (i) => (i % 2 === 0 ? 'acme' : 'globex'));
    let raced: Awaited<ReturnType<typeof runAdmissionPass>> | undefined;
    const slow = t.interrupted(async (step) => {
      if (step === 'mark' && !raced) raced = await runAdmissionPass(t.deps(t.store));
    });
    const first = await runAdmissionPass(t.deps(slow));
    const admitted = [...first.admitted, ...(raced?.admitted ?? [])].map((claim) => claim.leaseId);
    expect(admitted).toHaveLength(3);
    expect(new Set(admitted).size).toBe(3);
    expect(await t.held()).toEqual({ tenantGpus: 3, poolUnits: 3 * VCPUS, claimedGpus: 3, claimedUnits: 24 });
  });

  it('a pass that decided on the state before another pass reserved finds its reservation refused, and admits within the caps', async () => {
    const t = await setUp(3);
    await enqueue(t.store, 3);
    let other: Awaited<ReturnType<typeof runAdmissionPass>> | undefined;
    // Between this pass's snapshot and its reservation, more urgent leases arrive and another pass admits them.
    const late = t.interrupted(async (step) => {
      if (step !== 'reserve' || other) return;
      for (const i of [3, 4, 5]) await t.store.enqueue({ ...waiting(i), priority: 900 });
      other = await runAdmissionPass(t.deps(t.store));
    });
    const run = await runAdmissionPass(t.deps(late));
    expect(other?.admitted.map((claim) => claim.leaseId).sort()).toEqual(['lease-3', 'lease-4', 'lease-5']);
    expect(run.admitted).toEqual([]);
    expect(await t.held()).toEqual({ tenantGpus: 3, poolUnits: 3 * VCPUS, claimedGpus: 3, claimedUnits: 24 });
    expect(await t.status('lease-0')).toBe('QUEUED');
  });
});
