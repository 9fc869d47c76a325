/**
 * #41, no lease left behind: each fault a lease could not recover from by
 * itself, injected on the emulators, then one reconciler run (and the lease
 * worker on the commands it queued) settles the lease and closes its bill.
 */
import { GetQueueAttributesCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { lambdaContext } from '../../local/runtime/lambda-context';
import { scheduledEvent } from '../../local/runtime/schedules';
import { LEASE_TAG } from '../../shared/ports/compute';
import { RECONCILE_PERIOD_MS, STUCK_AFTER_MS } from '../../shared/usecases/lease-repairs';
import { DEAD_LETTERED_REASON } from '../../shared/usecases/provision-lease';
import { awsProbe } from '../support/aws';
import { type Harness, startHarness } from '../support/harness';
import { runQueuedCommands, sqsRecord, ssmCommandEvent, storedLease } from '../support/leases';

let h: Harness;
let reconciler: typeof import('../../functions/reconciler/handler').handler;
let worker: typeof import('../../functions/lease-worker/handler').handler;
let taskEvents: typeof import('../../functions/task-events/handler').handler;

beforeAll(async () => {
  h = await startHarness();
  ({ handler: reconciler } = await import('../../functions/reconciler/handler'));
  ({ handler: worker } = await import('../../functions/lease-worker/handler'));
  ({ handler: taskEvents } = await import('../../functions/task-events/handler'));
});

const TENANT = 'tenant-repairs';
const commandsUrl = () => h.env.LEASE_COMMANDS_QUEUE_URL ?? '';

/** One scheduled reconciler run, then the worker on every command it queued: one reconcile period. */
async function reconcilePeriod() {
  const summary = await reconciler(
    scheduledEvent('reconciler', Date.now(), 'us-east-1'),
    lambdaContext('reconciler', 60_000),
  );
  const ran = await runQueuedCommands(commandsUrl(), worker);
  return { summary, ran };
}

const live = async (leaseId: string) => awsProbe().instancesTagged(LEASE_TAG, leaseId);
const longAgo = () => Date.now() - STUCK_AFTER_MS - 60_000;

describe('the reconciler leaves no lease behind', () => {
  it('sends a lost start command again: the lease admitted after it waited runs, on one launch only', async () => {
    // The QUEUED → PENDING write happened; the start command that should have followed was lost.
    const lease = await storedLease(h.stores.leases, {
      tenantId: TENANT,
      instanceType: 'g5.2xlarge',
      createdAtMs: longAgo(),
      updatedAtMs: longAgo(),
      queuedAtMs: longAgo(),
    });
    await awsProbe().purge(commandsUrl());

    const { summary, ran } = await reconcilePeriod();
    expect(summary.repairs['provision-resent']).toBe(1);
    expect(summary.repairLog.repaired).toContainEqual({
      repair: 'provision-resent',
      tenantId: TENANT,
      leaseId: lease.leaseId,
    });
    expect(ran).toBe(1);
    const running = await h.stores.leases.get(TENANT, lease.leaseId);
    expect(running?.status).toBe('RUNNING');
    expect(running?.instances).toHaveLength(1);

    // A second period re-sends nothing and launches nothing: the lease left the PENDING partition.
    const again = await reconcilePeriod();
    expect(again.summary.repairs['provision-resent']).toBe(0);
    expect(await live(lease.leaseId)).toHaveLength(1);
  });

  it('leaves a PENDING lease younger than the grace alone (its command may still be on its way)', async () => {
    const lease = await storedLease(h.stores.leases, { tenantId: TENANT });
    await awsProbe().purge(commandsUrl());
    const { summary, ran } = await reconcilePeriod();
    expect(summary.repairLog.repaired.filter((r) => r.leaseId === lease.leaseId)).toEqual([]);
    expect(ran).toBe(0);
    expect((await h.stores.leases.get(TENANT, lease.leaseId))?.status).toBe('PENDING');
  });

  it('finishes a RELEASING lease whose release command was lost: RELEASED, its bill closed at the release', async () => {
    const { leaseId } = await h.runningLease(TENANT, { workload: 'training', gpus: 1 });
    const releaseAtMs = longAgo();
    expect(
      await h.stores.leases.transition(TENANT, leaseId, ['RUNNING'], 'RELEASING', releaseAtMs, {
        releaseRequestedAtMs: releaseAtMs,
      }),
    ).toBe(true);
    await awsProbe().purge(commandsUrl());

    const { summary } = await reconcilePeriod();
    expect(summary.repairs['release-resent']).toBe(1);
    const released = await h.stores.leases.get(TENANT, leaseId);
    expect(released?.status).toBe('RELEASED');
    expect(released?.instances.map((i) => [i.meteringOpen, i.endedAtMs])).toEqual([
      [false, released?.terminatedAtMs],
    ]);
    expect(await live(leaseId)).toEqual([]);
  });

  it('settles a task whose end event was lost: asked of SSM, released with onExit, billed to the task’s end', async () => {
    const { leaseId, instances } = await h.runningLease(TENANT, {
      workload: 'training',
      gpus: 1,
      task: { command: ['true'], onExit: 'release' },
    });
    await awsProbe().purge(commandsUrl());
    const instanceId = instances[0]?.instanceId ?? '';
    const commandId = (await h.stores.leases.get(TENANT, leaseId))?.task?.attempts[0]?.commandId ?? '';
    expect(commandId).not.toBe('');
    // SSM said it started more than a period ago; its Success event never came.
    const startedAtMs = Date.now() - RECONCILE_PERIOD_MS - 60_000;
    const started: SQSEvent = {
      Records: [sqsRecord(ssmCommandEvent('us-east-1', instanceId, commandId, 'InProgress', startedAtMs))],
    };
    await taskEvents(started, lambdaContext('task-events', 30_000));
    expect((await h.stores.leases.get(TENANT, leaseId))?.task?.status).toBe('RUNNING');

    const { summary } = await reconcilePeriod();
    expect(summary.repairs['task-settled']).toBe(1);
    const settled = await h.stores.leases.get(TENANT, leaseId);
    expect(settled?.task).toMatchObject({ status: 'SUCCEEDED', exitCode: 0 });
    const taskEnd = settled?.task?.endedAtMs ?? 0;
    expect(taskEnd).toBeGreaterThan(startedAtMs);
    expect(settled?.status).toBe('RELEASED');
    expect(settled?.instances.map((i) => [i.meteringOpen, i.endedAtMs])).toEqual([[false, taskEnd]]);
    expect(await live(leaseId)).toEqual([]);
  });

  it('ends a lease whose provision was dead-lettered FAILED with the reason, and takes the letter out of the DLQ', async () => {
    const created = await h.call(TENANT, 'POST /v1/leases', { body: { workload: 'training', gpus: 1 } });
    expect(created.status).toBe(202);
    const leaseId = String(created.body.leaseId);
    await awsProbe().purge(commandsUrl());
    // Every delivery of its provision failed: the queue moved it to its DLQ.
    await awsProbe().sqs.send(
      new SendMessageCommand({
        QueueUrl: h.env.LEASE_COMMANDS_DLQ_URL ?? '',
        MessageBody: JSON.stringify({ type: 'provision', tenantId: TENANT, leaseId }),
      }),
    );
    const { summary } = await reconcilePeriod();
    expect(summary.repairs['provision-dead-lettered']).toBe(1);
    const failed = await h.stores.leases.get(TENANT, leaseId);
    expect(failed?.status).toBe('FAILED');
    expect(failed?.failureReason).toBe(DEAD_LETTERED_REASON);
    expect(await awsProbe().receiveAll(h.env.LEASE_COMMANDS_DLQ_URL ?? '')).toEqual([]);
  });

  it('leaves other dead-lettered commands in the DLQ for the operator', async () => {
    const body = JSON.stringify({ type: 'decide', tenantId: TENANT, leaseId: 'lease_gone', atMs: 1 });
    const dlq = h.env.LEASE_COMMANDS_DLQ_URL ?? '';
    await awsProbe().sqs.send(new SendMessageCommand({ QueueUrl: dlq, MessageBody: body }));
    const { summary } = await reconcilePeriod();
    expect(summary.repairs['provision-dead-lettered']).toBe(0);
    const attributes = await awsProbe().sqs.send(
      new GetQueueAttributesCommand({
        QueueUrl: dlq,
        AttributeNames: ['ApproximateNumberOfMessagesNotVisible'],
      }),
    );
    // Hidden for a while by the reconciler's receive, not deleted.
    expect(Number(attributes.Attributes?.ApproximateNumberOfMessagesNotVisible)).toBe(1);
  });
});
