import type { SQSEvent } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { lambdaContext } from '../../local/runtime/lambda-context';
import { type Harness, startHarness } from '../support/harness';
import { sqsRecord } from '../support/leases';
import { usageCharges } from '../support/usage-records';

// #19 on the emulators, through the real API, lease worker, metering and admission handlers.
let h: Harness;
let worker: typeof import('../../functions/lease-worker/handler').handler;
const ADMIN = { 'cognito:groups': '[admin]' };
const TENANT = `queue-${Date.now()}`;
const MINUTE = 60_000;

beforeAll(async () => {
  h = await startHarness();
  ({ handler: worker } = await import('../../functions/lease-worker/handler'));
});

async function deliver(type: 'provision' | 'start' | 'release', leaseId: string) {
  const event: SQSEvent = { Records: [sqsRecord({ type, tenantId: TENANT, leaseId })] };
  const result = await worker(event, lambdaContext('lease-worker', 120_000));
  expect(result.batchItemFailures).toEqual([]);
}

async function requested(body: Record<string, unknown>): Promise<string> {
  const created = await h.call(TENANT, 'POST /v1/leases', { body });
  expect(created.status).toBe(202);
  const leaseId = String(created.body.leaseId);
  await deliver('provision', leaseId);
  return leaseId;
}

const view = async (leaseId: string) =>
  (await h.call(TENANT, 'GET /v1/leases/{id}', { params: { id: leaseId } })).body;

describe('a tenant at its quota', () => {
  it('queues, is admitted at a release, and a lease that waits too long times out with nothing billed', async () => {
    const quota = await h.call('ops', 'PUT /v1/admin/tenants/{tenantId}/quota', {
      params: { tenantId: TENANT },
      body: { maxGpus: 1, maxHourlyUsd: 100 },
      claims: ADMIN,
    });
    expect(quota.status).toBe(200);
    const body = { workload: 'training', gpus: 1, instanceType: 'g5.xlarge' };
    const first = await h.runningLease(TENANT, body);

    const patient = await requested({ ...body, priority: 900, maxWaitMinutes: 120 });
    const impatient = await requested({ ...body, maxWaitMinutes: 5 });
    const waiting = await view(patient);
    expect(waiting.status).toBe('QUEUED');
    expect(waiting.queue).toMatchObject({ reason: 'quota', position: 1 });
    expect(Date.parse(waiting.queue.estimatedStartAt)).toBeGreaterThan(Date.now() - MINUTE);
    expect(await view(impatient)).toMatchObject({
      status: 'QUEUED',
      queue: { reason: 'quota', position: 2 },
    });

    // The schedule past the impatient lease's wait (counted from when it joined the queue).
    await h.admissionPass(Date.now() + 6 * MINUTE);
    const timedOut = await view(impatient);
    expect(timedOut.status).toBe('FAILED');
    expect(timedOut.failureReason).toMatch(/^QUEUE_TIMEOUT/);
    expect(timedOut.instances).toEqual([]);
    expect((await view(patient)).status).toBe('QUEUED');

    // The release gives the quota back; its pass admits the waiting lease, whose start command launches it.
    expect((await h.call(TENANT, 'DELETE /v1/leases/{id}', { params: { id: first.leaseId } })).status).toBe(
      202,
    );
    await deliver('release', first.leaseId);
    expect((await view(patient)).status).toBe('PENDING');
    await deliver('start', patient);
    const admitted = await view(patient);
    expect(admitted.status).toBe('RUNNING');
    expect(admitted.queue).toBeUndefined();
    const own = await h.call(TENANT, 'GET /v1/quota');
    expect(own.body.usage.gpus).toBe(1);

    // A metering tick bills the running leases; the timed-out one never ran, so it has no charge.
    await h.tick(Date.now() + MINUTE);
    const charges = await usageCharges(h.env.USAGE_TABLE_NAME ?? '');
    expect(charges.some((row) => row.leaseId === patient)).toBe(true);
    expect(charges.filter((row) => row.leaseId === impatient)).toEqual([]);
  });
});
