import { GetScheduleCommand, ListSchedulesCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { DeleteMessageCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { beforeAll, describe, expect, it } from 'vitest';
import { type OneTimeSchedules, startOneTimeSchedules } from '../../local/runtime/expiry-schedules';
import { lambdaContext } from '../../local/runtime/lambda-context';
import { instantOfAtExpression, MAX_LEASE_MINUTES } from '../../shared/domain/lease-expiry';
import { type Harness, startHarness } from '../support/harness';
import { sqsRecord } from '../support/leases';

let harness: Harness;
let scheduler: SchedulerClient;
let sqs: SQSClient;
let expiries: OneTimeSchedules;
let group: string;

beforeAll(async () => {
  harness = await startHarness();
  scheduler = new SchedulerClient({});
  sqs = new SQSClient({ useQueueUrlAsEndpoint: false });
  group = harness.env.LEASE_EXPIRY_SCHEDULE_GROUP ?? '';
  expiries = startOneTimeSchedules(scheduler, sqs, group);
});

const MINUTE = 60_000;
const schedule = (leaseId: string) =>
  scheduler.send(new GetScheduleCommand({ GroupName: group, Name: `expire-${leaseId}` }));
const scheduleNames = async () =>
  ((await scheduler.send(new ListSchedulesCommand({ GroupName: group }))).Schedules ?? []).map((s) => s.Name);

/** Plays the SQS event source once: every queued command goes to the real worker. */
async function runQueuedCommands(): Promise<string[]> {
  const worker = (await import('../../functions/lease-worker/handler')).handler;
  const queueUrl = harness.env.LEASE_COMMANDS_QUEUE_URL ?? '';
  const types: string[] = [];
  for (;;) {
    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }),
    );
    if (Messages.length === 0) return types;
    for (const message of Messages) {
      types.push(JSON.parse(message.Body ?? '{}').type);
      const result = await worker(
        { Records: [sqsRecord(message.Body ?? '')] },
        lambdaContext('worker', 60_000),
      );
      expect(result.batchItemFailures).toEqual([]);
      await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message.ReceiptHandle }));
    }
  }
}

async function createLease(tenant: string, body: Record<string, unknown>) {
  const created = await harness.call(tenant, 'POST /v1/leases', { body });
  expect(created.status).toBe(202);
  await runQueuedCommands(); // provision
  const lease = await harness.call(tenant, 'GET /v1/leases/{id}', { params: { id: created.body.leaseId } });
  expect(lease.body.status).toBe('RUNNING');
  return lease.body;
}

describe('lease expiry', () => {
  it('arms a one-time schedule named after the lease, which releases it through the normal path when it fires', async () => {
    const lease = await createLease('tenant-exp', { workload: 'training', gpus: 1, durationMinutes: 90 });
    const createdAtMs = Date.parse(lease.createdAt);
    expect(Date.parse(lease.expiresAt) - createdAtMs).toBe(90 * MINUTE);
    const armed = await schedule(lease.leaseId);
    expect(armed.ScheduleExpression).toBe(
      `at(${new Date(Math.ceil(Date.parse(lease.expiresAt) / 1000) * 1000).toISOString().slice(0, 19)})`,
    );
    expect(armed.ScheduleExpressionTimezone).toBe('UTC');
    expect(armed.ActionAfterCompletion).toBe('DELETE');
    expect(armed.Target?.Arn).toBe(harness.env.LEASE_COMMANDS_QUEUE_ARN);
    expect(JSON.parse(armed.Target?.Input ?? '{}')).toEqual({
      type: 'expire',
      tenantId: 'tenant-exp',
      leaseId: lease.leaseId,
    });

    expect(await expiries.fireDue(createdAtMs + 89 * MINUTE)).toBe(0); // not yet
    expect(await expiries.fireDue(createdAtMs + 91 * MINUTE)).toBe(1);
    expect(await runQueuedCommands()).toEqual(['expire', 'release']);
    const ended = await harness.call('tenant-exp', 'GET /v1/leases/{id}', { params: { id: lease.leaseId } });
    expect(ended.body.status).toBe('RELEASED');
    expect(ended.body.instances.every((i: { endedAt?: string }) => i.endedAt)).toBe(true);
    expect(await scheduleNames()).not.toContain(`expire-${lease.leaseId}`);
    // A late second delivery of the same expiry changes nothing.
    expect(await expiries.fireDue(createdAtMs + 92 * MINUTE)).toBe(0);
  });

  it('deletes the schedule when the lease is released early', async () => {
    const lease = await createLease('tenant-exp', { workload: 'training', gpus: 1, durationMinutes: 60 });
    expect(await scheduleNames()).toContain(`expire-${lease.leaseId}`);
    expect(
      (await harness.call('tenant-exp', 'DELETE /v1/leases/{id}', { params: { id: lease.leaseId } })).status,
    ).toBe(202);
    expect(await runQueuedCommands()).toEqual(['release']);
    expect(await scheduleNames()).not.toContain(`expire-${lease.leaseId}`);
    expect(await expiries.fireDue(Date.parse(lease.expiresAt) + MINUTE)).toBe(0);
  });

  it('is idempotent by lease: arming twice keeps one schedule; an expiry of an ended lease does nothing', async () => {
    const lease = await createLease('tenant-exp', { workload: 'inference', gpus: 1, durationMinutes: 5 });
    const { buildPorts } = await import('../../shared/lambda/port-factory');
    const { leaseExpiryScheduler } = await import('../../shared/lambda/lease-expiry');
    const { expiry } = buildPorts({ expiry: leaseExpiryScheduler() }, harness.env);
    await expiry.schedule('tenant-exp', lease.leaseId, Date.parse(lease.expiresAt) + 10 * MINUTE);
    expect((await scheduleNames()).filter((n) => n === `expire-${lease.leaseId}`)).toHaveLength(1);
    // The first arming stands: the schedule fires at the lease's expiry (rounded up to the second), not 10 minutes later.
    const armedAt = instantOfAtExpression((await schedule(lease.leaseId)).ScheduleExpression ?? '');
    expect(armedAt).toBe(Math.ceil(Date.parse(lease.expiresAt) / 1000) * 1000);

    await harness.call('tenant-exp', 'DELETE /v1/leases/{id}', { params: { id: lease.leaseId } });
    await runQueuedCommands();
    const worker = (await import('../../functions/lease-worker/handler')).handler;
    const command = { type: 'expire', tenantId: 'tenant-exp', leaseId: lease.leaseId };
    await worker({ Records: [sqsRecord(command)] }, lambdaContext('worker', 60_000));
    expect(await runQueuedCommands()).toEqual([]); // no second release queued
    await expiry.cancel(lease.leaseId); // cancelling what is gone is fine
  });

  it("applies the tenant's default lifetime to leases that ask for none, and a lease's own over it", async () => {
    const tenant = 'tenant-default';
    const put = await harness.call(tenant, 'PUT /v1/settings', { body: { defaultLeaseDurationMinutes: 30 } });
    expect(put).toMatchObject({ status: 200, body: { defaultLeaseDurationMinutes: 30 } });
    const defaulted = await createLease(tenant, { workload: 'batch', gpus: 1 });
    expect(Date.parse(defaulted.expiresAt) - Date.parse(defaulted.createdAt)).toBe(30 * MINUTE);
    const own = await createLease(tenant, { workload: 'batch', gpus: 1, durationMinutes: 2 });
    expect(Date.parse(own.expiresAt) - Date.parse(own.createdAt)).toBe(2 * MINUTE);

    await harness.call(tenant, 'PUT /v1/settings', { body: { defaultLeaseDurationMinutes: null } });
    const forever = await createLease(tenant, { workload: 'batch', gpus: 1 });
    expect(forever.expiresAt).toBeUndefined();
    expect(await scheduleNames()).not.toContain(`expire-${forever.leaseId}`);
    expect((await harness.call(tenant, 'GET /v1/settings')).body).toEqual({
      defaultLeaseDurationMinutes: null,
    });
  });

  it.each([0, -5, 1.5, MAX_LEASE_MINUTES + 1, '60'])(
    'refuses durationMinutes %s with 400 and writes nothing',
    async (durationMinutes) => {
      const tenant = `tenant-bad-${String(durationMinutes).replace(/\W/g, '')}`;
      const refused = await harness.call(tenant, 'POST /v1/leases', {
        body: { workload: 'training', gpus: 1, durationMinutes },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe('VALIDATION_FAILED');
      expect(refused.body.error.details[0].path).toBe('durationMinutes');
      expect((await harness.call(tenant, 'GET /v1/leases')).body.leases).toEqual([]);
      const setting = await harness.call(tenant, 'PUT /v1/settings', {
        body: { defaultLeaseDurationMinutes: durationMinutes },
      });
      expect(setting.status).toBe(400);
      expect((await harness.call(tenant, 'GET /v1/settings')).body).toEqual({
        defaultLeaseDurationMinutes: null,
      });
    },
  );
});
