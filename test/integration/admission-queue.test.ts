import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { SQSEvent } from 'aws-lambda';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { lambdaContext } from '../../local/runtime/lambda-context';
import { scheduledEvent } from '../../local/runtime/schedules';
import { DynamoDbAdmissionStore } from '../../shared/adapters/dynamodb-admission-store';
import type { LeaseView } from '../../shared/domain/lease';
import { type Harness, startHarness } from '../support/harness';
import { runQueuedCommands, sqsRecord } from '../support/leases';
import { usageCharges } from '../support/usage-records';

// The audit's replay reads the small spot fixture rather than the team's traces.
process.env.SPOT_DATA_DIR = fileURLToPath(new URL('../fixtures/audit/spot-data', import.meta.url));

// #19 on the emulators, through the real API, lease worker, metering, admission and audit handlers.
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

/** No room left in the account's on-demand G vCPU quota in us-east-1 (as Service Quotas would say). */
async function closeAccountQuota(): Promise<DynamoDbAdmissionStore> {
  const admission = new DynamoDbAdmissionStore(h.stores.documents, h.env.ADMISSION_TABLE_NAME ?? '');
  await admission.putPoolLimit({
    kind: 'vcpu',
    region: 'us-east-1',
    family: 'G',
    market: 'on-demand',
    limit: 0,
  });
  return admission;
}

const view = async (leaseId: string, tenant = TENANT) =>
  (await h.call(tenant, 'GET /v1/leases/{id}', { params: { id: leaseId } })).body;

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

    // With room in its quota but none in the account's on-demand G vCPU quota, a lease waits on
    // that quota for its one minute and times out.
    await h.call('ops', 'PUT /v1/admin/tenants/{tenantId}/quota', {
      params: { tenantId: TENANT },
      body: { maxGpus: 10, maxHourlyUsd: 100 },
      claims: ADMIN,
    });
    await closeAccountQuota();
    const refused = await requested({ ...body, regions: ['us-east-1'], maxWaitMinutes: 1 });
    expect((await view(refused)).queue).toMatchObject({ reason: 'account-quota' });
    await h.admissionPass(Date.now() + 2 * MINUTE);
    expect((await view(refused)).failureReason).toMatch(/^QUEUE_TIMEOUT/);

    // Each lease's queue history: one mark per change of reason (passes rewrite the same reason
    // without adding marks), then how the wait ended.
    const stored = async (leaseId: string) => (await h.stores.leases.get(TENANT, leaseId)) as LeaseView;
    const ran = await stored(first.leaseId);
    const waited = await stored(patient);
    const late = await stored(impatient);
    const refusedLease = await stored(refused);
    expect(ran.queueHistory).toBeUndefined();
    expect(waited.queueHistory?.map((m) => m.state)).toEqual(['quota', 'admitted']);
    expect(late.queueHistory?.map((m) => m.state)).toEqual(['quota', 'timed-out']);
    expect(refusedLease.queueHistory?.map((m) => m.state)).toEqual(['account-quota', 'timed-out']);
    expect(refusedLease.queueRegion).toBe('us-east-1');
    const qP = waited.queuedAtMs ?? 0;
    const aP = waited.queueHistory?.[1]?.atMs ?? 0;
    const qI = late.queuedAtMs ?? 0;
    // The patient lease joined the queue first and was admitted after the impatient one joined.
    expect(qP).toBeLessThan(qI);
    expect(aP).toBeGreaterThan(qI);

    // Today's profile: waits 0 (ran at once), the patient's, 60 s and 300 s (the two time-outs' maxWait).
    const profile = await h.call(TENANT, 'GET /v1/profile', {
      query: { from: new Date(ran.createdAtMs).toISOString().slice(0, 10) },
    });
    expect(profile.status).toBe(200);
    const patientWait = (aP - qP) / 1000;
    const waitSeconds = { leases: 4, timedOut: 2, unfinished: 0, p50: Math.min(patientWait, 60), p95: 300 };
    expect(profile.body.days[0].queue.waitSeconds).toEqual({
      ...waitSeconds,
      byWorkload: { training: waitSeconds },
    });

    // The month's audit as the schedule builds it on the 1st of the next month, when every wait is over.
    const month = new Date(ran.createdAtMs).toISOString().slice(0, 7);
    const nextMonth = Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 1);
    const { handler: audit } = await import('../../functions/audit/handler');
    await audit(scheduledEvent('gpurent-audit', nextMonth, 'us-east-1'), lambdaContext('audit', 300_000));
    const { body: audited } = await h.call(TENANT, 'GET /v1/audit/{month}', { params: { month } });
    expect(audited.complete).toBe(true);
    expect(audited.queue.month.waitSeconds).toMatchObject(waitSeconds);
    // On its quota: the patient lease from joining the queue to its admission, the impatient one its 5 minutes.
    expect(audited.queue.month.overQuota).toEqual({
      leaseSeconds: (aP - qP + 5 * MINUTE) / 1000,
      wallSeconds: (Math.max(aP, qI + 5 * MINUTE) - qP) / 1000,
    });
    // One GPU for one minute (0.017 GPU-hours), never served: what to ask AWS for, in us-east-1 G.
    const refusedHours = { gpuHours: 0.017, peakGpus: 1, timedOut: { leases: 1, gpuHours: 0.017 } };
    expect(audited.queue.month.accountQuota).toEqual({
      ...refusedHours,
      byPool: [{ region: 'us-east-1', family: 'G', ...refusedHours }],
    });
  });
});

describe('a wait that ends between two scheduled passes', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('times the lease out when its wait ends: the pass before holds a time-out command back until then', async () => {
    const tenant = `wait-${Date.now()}`;
    const queueUrl = h.env.LEASE_COMMANDS_QUEUE_URL ?? '';
    // No room in the account's on-demand G vCPU quota: the lease waits for it.
    const admission = await closeAccountQuota();
    const body = { workload: 'training', gpus: 1, instanceType: 'g5.xlarge', regions: ['us-east-1'] };
    // The worker takes what the API queued (and again what earlier tests delivered by hand: no-ops).
    const created = await h.call(tenant, 'POST /v1/leases', { body: { ...body, maxWaitMinutes: 1 } });
    expect(created.status).toBe(202);
    const leaseId = String(created.body.leaseId);
    await runQueuedCommands(queueUrl, worker);
    const queued = await h.stores.leases.get(tenant, leaseId);
    expect(queued).toMatchObject({ status: 'QUEUED', queue: { reason: 'account-quota' } });
    // Its wait counts from when it joined admission's queue.
    const endsAtMs = ((await admission.entry(leaseId))?.lease.queuedAtMs ?? 0) + MINUTE;
    // The lease says until when it waits.
    expect((await view(leaseId, tenant)).queue.waitEndsAt).toBe(new Date(endsAtMs).toISOString());

    // The schedule's pass (its function's clock too) 0.4 s before the wait ends: nothing to time out yet,
    // one time-out held back 1 s.
    vi.useFakeTimers({ toFake: ['Date'], now: endsAtMs - 400 });
    const counts = await h.admissionPass(endsAtMs - 400);
    expect(counts).toMatchObject({ timedOut: 0, waitsEnding: 1 });
    expect((await h.stores.leases.get(tenant, leaseId))?.status).toBe('QUEUED');

    // The worker's clock just past the end; the queue shows the command after its second.
    vi.useFakeTimers({ toFake: ['Date'], now: endsAtMs + 500 });
    let ran = 0;
    for (let look = 0; look < 40 && ran === 0; look++) {
      await sleep(250);
      ran = await runQueuedCommands(queueUrl, worker);
    }
    expect(ran).toBe(1);
    const failed = await h.stores.leases.get(tenant, leaseId);
    expect(failed?.status).toBe('FAILED');
    expect(failed?.failureReason).toMatch(/^QUEUE_TIMEOUT/);
    // At the worker's instant, not at the next pass a minute after the one before.
    expect(failed?.updatedAtMs).toBe(endsAtMs + 500);
    expect(failed?.instances).toEqual([]);
  });
});
