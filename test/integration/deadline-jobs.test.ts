import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { SQSEvent } from 'aws-lambda';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { lambdaContext } from '../../local/runtime/lambda-context';
import { PROGRESS_FILE_NAME } from '../../shared/domain/deadlines/progress-file';
import { EC2_EVENT_TYPES } from '../../shared/domain/ec2-events';
import { checkpointPrefix } from '../../shared/domain/tasks/log-streams';
import { awsProbe } from '../support/aws';
import { type Harness, startHarness } from '../support/harness';
import { runQueuedCommands, sqsRecord, ssmCommandEvent } from '../support/leases';

let h: Harness;
let worker: typeof import('../../functions/lease-worker/handler').handler;
let interruptions: typeof import('../../functions/interruption-handler/handler').handler;
let taskEvents: typeof import('../../functions/task-events/handler').handler;

beforeAll(async () => {
  h = await startHarness();
  ({ handler: worker } = await import('../../functions/lease-worker/handler'));
  ({ handler: interruptions } = await import('../../functions/interruption-handler/handler'));
  ({ handler: taskEvents } = await import('../../functions/task-events/handler'));
});

afterEach(() => {
  vi.useRealTimers();
});

const MINUTE = 60_000;
const RECLAIM_MS = 2 * MINUTE;
const TENANT = 'tenant-deadline';
const queueUrl = () => h.env.LEASE_COMMANDS_QUEUE_URL ?? '';
const batch = (...bodies: object[]): SQSEvent => ({ Records: bodies.map((body) => sqsRecord(body)) });
/** The handlers' clock moved to `atMs` (Date only; timers stay real). */
const clockAt = (atMs: number) => vi.useFakeTimers({ toFake: ['Date'], now: atMs });
const wholeSecond = (ms: number) => Math.ceil(ms / 1000) * 1000;

/**
 * A lease of one spot machine in `region` whose task has a deadline, launched by the worker.
 * Each test has a region of its own: the worker's container remembers the pools an earlier one lost.
 */
async function launchedJob(region: string, deadlineMs: number, workMinutes: number) {
  const created = await h.call(TENANT, 'POST /v1/leases', {
    body: {
      workload: 'batch',
      gpus: 1,
      instanceType: 'g5.xlarge',
      regions: [region],
      task: {
        command: ['python', 'train.py'],
        deadline: new Date(deadlineMs).toISOString(),
        workMinutes,
        restartMinutes: 5,
      },
    },
  });
  expect(created.status).toBe(202);
  const leaseId = String(created.body.leaseId);
  expect(await runQueuedCommands(queueUrl(), worker)).toBe(1);
  const lease = await h.stores.leases.get(TENANT, leaseId);
  expect(lease?.status).toBe('RUNNING');
  return { leaseId, instance: lease?.instances[0] };
}

/** EC2's spot warning for the instance at `warnedAtMs`, handled when AWS takes it, then the queued replace. */
async function reclaim(region: string, instanceId: string, warnedAtMs: number) {
  clockAt(warnedAtMs + RECLAIM_MS);
  const warning = {
    version: '0',
    id: `warning-${instanceId}`,
    'detail-type': EC2_EVENT_TYPES.spotWarning,
    source: 'aws.ec2',
    account: '000000000000',
    time: new Date(warnedAtMs).toISOString(),
    region,
    resources: [],
    detail: { 'instance-id': instanceId, 'instance-action': 'terminate' },
  };
  const result = await interruptions(batch(warning), lambdaContext('interruption-handler', 60_000));
  expect(result.batchItemFailures).toEqual([]);
  expect(await runQueuedCommands(queueUrl(), worker)).toBeGreaterThan(0);
}

const ssmEvent = (instanceId: string, commandId: string, status: string, atMs: number) =>
  ssmCommandEvent('us-west-2', instanceId, commandId, status, atMs);

/** What the task's checkpoint sync would put: its progress file, naming the minutes of work saved. */
async function reportProgress(leaseId: string, minutes: number) {
  const s3 = new S3Client({ forcePathStyle: true });
  await s3.send(
    new PutObjectCommand({
      Bucket: h.env.CHECKPOINT_BUCKET_NAME,
      Key: `${checkpointPrefix(TENANT, leaseId)}${PROGRESS_FILE_NAME}`,
      Body: String(minutes),
    }),
  );
  s3.destroy();
}

const getLease = async (leaseId: string) =>
  (await h.call(TENANT, 'GET /v1/leases/{id}', { params: { id: leaseId } })).body;

describe('jobs with deadlines on the local stack: the policy places real leases', {
  timeout: 180_000,
}, () => {
  it('a tight deadline whose spot pool is taken back switches to on-demand in time, and the task finishes by the deadline', async () => {
    await awsProbe().purge(queueUrl());
    const t0 = Date.now();
    // 60 minutes of work, 75 to the deadline: a restart (6 minutes counted in 2-minute looks) and a look fit,
    // with 7 minutes of slack: enough for the spot start's own restart.
    const deadlineMs = wholeSecond(t0 + 75 * MINUTE);
    const { leaseId, instance } = await launchedJob('us-west-2', deadlineMs, 60);
    expect(instance).toMatchObject({ mode: 'spot', region: 'us-west-2' });
    const atLaunch = await h.stores.leases.get(TENANT, leaseId);
    expect(atLaunch?.deadlineDecision).toMatchObject({ trigger: 'launch', action: { kind: 'spot' } });

    // The pool takes the machine back two minutes in: 5 minutes of slack are left, too few for another spot restart.
    await reclaim('us-west-2', instance?.instanceId ?? '', t0);
    const switched = await h.stores.leases.get(TENANT, leaseId);
    expect(switched?.status).toBe('RUNNING');
    expect(switched?.placement).toMatchObject({ mode: 'on-demand', region: 'us-west-2' });
    expect(switched?.placement?.reason).toMatch(/^deadline policy: on-demand in us-west-2/);
    expect(switched?.deadlineDecision).toMatchObject({
      trigger: 'interruption',
      action: { kind: 'on-demand', region: 'us-west-2' },
    });
    expect(switched?.deadlineDecision?.slackMs).toBeLessThan(6 * MINUTE);
    const replacement = switched?.instances.find((i) => i.instanceId !== instance?.instanceId);
    expect(replacement).toMatchObject({ mode: 'on-demand', meteringOpen: true });
    // The reclaimed machine's bill ended at the reclaim, when the worker ended it before the launch.
    const retired = switched?.instances.find((i) => i.instanceId === instance?.instanceId);
    expect(retired).toMatchObject({ meteringOpen: false, endedAtMs: t0 + RECLAIM_MS });
    // The attempt on the reclaimed machine ended before the next one was sent to the replacement.
    expect(switched?.task?.attempts.map((a) => [a.instanceId, a.status])).toEqual([
      [instance?.instanceId, 'INTERRUPTED'],
      [replacement?.instanceId, 'SENT'],
    ]);

    const view = await getLease(leaseId);
    expect(view.task.decision).toBe(switched?.deadlineDecision?.reason);
    expect(view.task.slackMinutes).toBeLessThan(6);

    // The task runs its hour on-demand after the restart, and ends before the deadline.
    const commandId = switched?.task?.attempts[1]?.commandId ?? '';
    const startedAtMs = t0 + RECLAIM_MS + 5 * MINUTE;
    const endedAtMs = startedAtMs + 60 * MINUTE;
    expect(endedAtMs).toBeLessThanOrEqual(deadlineMs);
    const replacementId = replacement?.instanceId ?? '';
    clockAt(endedAtMs);
    await taskEvents(
      batch(ssmEvent(replacementId, commandId, 'InProgress', startedAtMs)),
      lambdaContext('task-events', 30_000),
    );
    await taskEvents(
      batch(ssmEvent(replacementId, commandId, 'Success', endedAtMs)),
      lambdaContext('task-events', 30_000),
    );
    // Released by the end's own delivery (main's d8902a1): the release command waits, held back, as the backstop.
    expect(await runQueuedCommands(queueUrl(), worker)).toBe(0);
    const finished = await h.stores.leases.get(TENANT, leaseId);
    expect(finished?.task).toMatchObject({ status: 'SUCCEEDED', endedAtMs });
    expect(finished?.status).toBe('RELEASED');
    // The lease shows the job done, in time: no slack, no pending decision.
    const done = await getLease(leaseId);
    expect(done.task.progress).toMatchObject({ percent: 100, unsavedMinutes: 0 });
    expect(done.task.slackMinutes).toBeUndefined();
    expect(done.task.decision).toMatch(/^none: the task succeeded \d+\.\d h before the deadline$/);

    // The schedule's next look finds the job over: it leaves the schedule, deciding nothing more.
    expect(await h.deadlineTick(endedAtMs + 2 * MINUTE)).toBe(1);
    expect(await h.deadlineTick(endedAtMs + 4 * MINUTE)).toBe(0);
    expect((await h.stores.leases.get(TENANT, leaseId))?.deadlineDecision?.trigger).toBe('interruption');
  });

  it('with slack, stays on spot through an interruption, in the pool that still has capacity, and the schedule keeps it there', async () => {
    await awsProbe().purge(queueUrl());
    const t0 = Date.now();
    const deadlineMs = wholeSecond(t0 + 48 * 60 * MINUTE);
    const { leaseId, instance } = await launchedJob('us-east-1', deadlineMs, 120);
    expect(instance?.mode).toBe('spot');

    await reclaim('us-east-1', instance?.instanceId ?? '', t0);
    const replaced = await h.stores.leases.get(TENANT, leaseId);
    expect(replaced?.status).toBe('RUNNING');
    expect(replaced?.placement?.mode).toBe('spot');
    // The reclaimed pool sits out its back-off: the other zone.
    expect(replaced?.placement?.zone).not.toBe(instance?.zone);
    expect(replaced?.deadlineDecision).toMatchObject({
      trigger: 'interruption',
      action: { kind: 'spot', zone: replaced?.placement?.zone },
    });

    // The task reports 30 minutes saved; the schedule looks again and leaves the job where it is.
    await reportProgress(leaseId, 30);
    const lookAtMs = t0 + RECLAIM_MS + 4 * MINUTE;
    clockAt(lookAtMs);
    expect(await h.deadlineTick(lookAtMs)).toBeGreaterThan(0);
    const looked = await h.stores.leases.get(TENANT, leaseId);
    expect(looked?.deadlineDecision).toMatchObject({
      trigger: 'schedule',
      atMs: lookAtMs,
      doneMs: 30 * MINUTE,
      action: { kind: 'spot', zone: replaced?.placement?.zone },
    });
    expect(looked?.instances.map((i) => i.instanceId)).toEqual(replaced?.instances.map((i) => i.instanceId));

    const view = await getLease(leaseId);
    expect(view.task.progress).toMatchObject({ savedMinutes: 30, percent: 25 });
    expect(view.task.decision).toMatch(/^spot in us-east-1[ab] at /);
    expect(view.task.slackMinutes).toBeGreaterThan(40 * 60);
  });
});
