import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSEvent } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { lambdaContext } from '../../local/runtime/lambda-context';
import { leaseKey, tenantKey } from '../../shared/adapters/dynamodb-keys';
import { type Harness, startHarness } from '../support/harness';
import { sqsRecord, storedLease } from '../support/leases';

// The cap on a tenant's waiting leases (issue 41), through the real API and lease worker on the emulators.
let h: Harness;
let worker: typeof import('../../functions/lease-worker/handler').handler;
const ADMIN = { 'cognito:groups': '[admin]' };
const body = { workload: 'training', gpus: 1, instanceType: 'g5.xlarge' };

beforeAll(async () => {
  h = await startHarness();
  ({ handler: worker } = await import('../../functions/lease-worker/handler'));
});

const setWaitingCap = async (tenant: string, maxWaitingLeases: number) => {
  const set = await h.call('ops', 'PUT /v1/admin/tenants/{tenantId}/limits', {
    params: { tenantId: tenant },
    body: { maxWaitingLeases },
    claims: ADMIN,
  });
  expect(set.status).toBe(200);
};

async function provision(tenant: string, leaseId: string) {
  const event: SQSEvent = { Records: [sqsRecord({ type: 'provision', tenantId: tenant, leaseId })] };
  const result = await worker(event, lambdaContext('lease-worker', 120_000));
  expect(result.batchItemFailures).toEqual([]);
}

const create = (tenant: string) => h.call(tenant, 'POST /v1/leases', { body });
const leaseIds = async (tenant: string) =>
  ((await h.call(tenant, 'GET /v1/leases')).body.leases as { leaseId: string }[]).map((l) => l.leaseId);

describe('maxWaitingLeases (DynamoDB Local, the real handlers)', () => {
  it('refuses the lease past the cap with 429 WAITING_LEASES_CAP_REACHED, writing nothing, and admits again once one starts', async () => {
    const tenant = `waiter-${Date.now()}`;
    await setWaitingCap(tenant, 2);
    const first = await create(tenant);
    const second = await create(tenant);
    expect([first.status, second.status]).toEqual([202, 202]);

    const refused = await create(tenant);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('60');
    const message = expect.stringContaining(
      'has 2 leases waiting to start (PENDING or QUEUED), its cap of 2',
    );
    expect(refused.body.error).toEqual({
      code: 'WAITING_LEASES_CAP_REACHED',
      message,
      details: [{ path: 'maxWaitingLeases', message }],
    });
    expect((await leaseIds(tenant)).sort()).toEqual([first.body.leaseId, second.body.leaseId].sort());

    await provision(tenant, first.body.leaseId);
    expect((await h.stores.leases.get(tenant, first.body.leaseId))?.status).toBe('RUNNING');
    expect((await create(tenant)).status).toBe(202);
    expect((await create(tenant)).status).toBe(429);
    expect(await leaseIds(tenant)).toHaveLength(3);
  });

  it('counts a QUEUED lease, and a release frees its place at once', async () => {
    const tenant = `queued-${Date.now()}`;
    const quota = await h.call('ops', 'PUT /v1/admin/tenants/{tenantId}/quota', {
      params: { tenantId: tenant },
      body: { maxGpus: 1, maxHourlyUsd: 100 },
      claims: ADMIN,
    });
    expect(quota.status).toBe(200);
    await setWaitingCap(tenant, 1);
    // RUNNING, so not waiting: the cap of 1 still has its place.
    await h.runningLease(tenant, body);
    const queued = await create(tenant);
    expect(queued.status).toBe(202);
    await provision(tenant, queued.body.leaseId);
    expect((await h.stores.leases.get(tenant, queued.body.leaseId))?.status).toBe('QUEUED');

    const refused = await create(tenant);
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toContain('has 1 leases waiting');

    const released = await h.call(tenant, 'DELETE /v1/leases/{id}', { params: { id: queued.body.leaseId } });
    expect(released.status).toBe(202);
    expect((await create(tenant)).status).toBe(202);
  });

  it('keeps waitingTenant on a lease while PENDING or QUEUED only, and counts no further than asked', async () => {
    const tenant = `index-${Date.now()}`;
    const { leases, documents } = h.stores;
    const stored = await Promise.all(
      [0, 1, 2].map((i) => storedLease(leases, { tenantId: tenant, createdAtMs: Date.now() + i })),
    );
    const item = async (leaseId: string) =>
      (
        await documents.send(
          new GetCommand({
            TableName: h.env.LEASES_TABLE_NAME,
            Key: { pk: tenantKey(tenant), sk: leaseKey(leaseId) },
          }),
        )
      ).Item;
    const [a, b, c] = stored.map((lease) => lease.leaseId) as [string, string, string];
    expect((await item(a))?.waitingTenant).toBe(tenant);
    expect(await leases.countWaiting(tenant, 10)).toBe(3);
    expect(await leases.countWaiting(tenant, 2)).toBe(2);

    await leases.transition(tenant, a, ['PENDING'], 'QUEUED', Date.now());
    await leases.transition(tenant, a, ['QUEUED'], 'PENDING', Date.now());
    expect((await item(a))?.waitingTenant).toBe(tenant);
    expect(await leases.countWaiting(tenant, 10)).toBe(3);

    await leases.transition(tenant, a, ['PENDING'], 'RUNNING', Date.now());
    await leases.transition(tenant, b, ['PENDING'], 'FAILED', Date.now());
    expect((await item(a))?.waitingTenant).toBeUndefined();
    expect((await item(a))?.openStatus).toBe('RUNNING');
    expect((await item(b))?.waitingTenant).toBeUndefined();
    expect((await item(b))?.openStatus).toBeUndefined();
    expect(await leases.countWaiting(tenant, 10)).toBe(1);
    // The attribute is the index's, not the lease's.
    expect(await leases.get(tenant, c)).not.toHaveProperty('waitingTenant');
    expect(await leases.countWaiting('nobody', 10)).toBe(0);
  });
});
