import { describe, expect, it } from 'vitest';
import { EC2_EVENT_TYPES } from '../../../shared/domain/ec2-events';
import {
  type CommandInvocationEvent,
  SSM_COMMAND_EVENT_TYPE,
} from '../../../shared/domain/tasks/command-events';
import { taskSpecSchema } from '../../../shared/domain/tasks/spec';
import type { LeaseCommand } from '../../../shared/ports/lease-commands';
import { admitQueued } from '../../../shared/usecases/admission/queue';
import { handleEc2Event } from '../../../shared/usecases/interruptions';
import { runLeaseCommand } from '../../../shared/usecases/lease-commands';
import { provisionLease } from '../../../shared/usecases/provision-lease';
import {
  handleCommandEvent,
  TASK_RELEASE_BACKSTOP_SECONDS,
  TaskCommandNotRecordedError,
} from '../../../shared/usecases/task-command-events';
import { advanceTask } from '../../../shared/usecases/tasks';
import { type FakeControlPlane, fakeControlPlane } from '../../support/fakes/control-plane';
import { requestLease, TENANT } from '../../support/fakes/leases';

const SECOND = 1000;
const MINUTE = 60 * SECOND;

const twice = <T>(run: () => Promise<T>) => Promise.all([run(), run()]);

function ssmEvent(
  plane: FakeControlPlane,
  instanceId: string,
  commandId: string,
  status: string,
): CommandInvocationEvent {
  return {
    'detail-type': SSM_COMMAND_EVENT_TYPE,
    source: 'aws.ssm',
    region: 'us-east-1',
    time: new Date(plane.now()).toISOString(),
    detail: {
      'command-id': commandId,
      'instance-id': instanceId,
      status,
      ...(status === 'Success' ? { 'exit-code': 0 } : {}),
    },
  };
}

async function taskLease(plane: FakeControlPlane, workload: 'batch' | 'training' = 'training') {
  const lease = await requestLease(plane, {
    workload,
    task: taskSpecSchema.parse({ command: ['python3', '-c', 'print(1)'] }),
  });
  const provision: LeaseCommand = { type: 'provision', tenantId: TENANT, leaseId: lease.leaseId };
  return { leaseId: lease.leaseId, provision };
}

const peek = (plane: FakeControlPlane, leaseId: string) => plane.leases.peek(TENANT, leaseId);
const commandsOf = (plane: FakeControlPlane, type: LeaseCommand['type']) =>
  plane.commands.commands().filter((c) => c.type === type);

/** Runs every release command queued so far, each delivered twice at once. */
async function deliverReleases(plane: FakeControlPlane) {
  for (const command of commandsOf(plane, 'release')) await twice(() => runLeaseCommand(plane, command));
}

describe('a lease command delivered twice starts its task once', () => {
  it('the provision command delivered twice at once launches once and sends one SendCommand', async () => {
    const plane = fakeControlPlane();
    const { leaseId, provision } = await taskLease(plane);

    const outcomes = await twice(() => runLeaseCommand(plane, provision));

    expect(outcomes.map((o) => o.outcome).sort()).toEqual(['not-pending', 'running']);
    expect(plane.compute.live()).toHaveLength(1);
    expect(plane.tasks.runner.sent).toHaveLength(1);
    expect(peek(plane, leaseId)?.task).toMatchObject({ status: 'STARTING', attempt: 1 });
    expect(plane.events.ofType('TaskStarted')).toHaveLength(1);
  });

  it('a provision redelivered after a run that made the lease RUNNING and died before the task starts it, once', async () => {
    const plane = fakeControlPlane();
    const { leaseId, provision } = await taskLease(plane);
    // The first delivery's worker died between the lease's RUNNING and its task.
    expect(await provisionLease(plane, TENANT, leaseId)).toBe('running');
    expect(plane.tasks.runner.sent).toHaveLength(0);

    await twice(() => runLeaseCommand(plane, provision));
    await runLeaseCommand(plane, provision);

    expect(plane.tasks.runner.sent).toHaveLength(1);
    expect(peek(plane, leaseId)?.task).toMatchObject({ status: 'STARTING', attempt: 1 });
  });

  it('the replace command delivered twice at once launches one replacement and sends one attempt on it', async () => {
    const plane = fakeControlPlane();
    const { leaseId, provision } = await taskLease(plane, 'batch');
    await runLeaseCommand(plane, provision);
    const [warned] = peek(plane, leaseId)?.instances ?? [];
    if (!warned) throw new Error('no instance');
    await handleEc2Event(plane, {
      id: 'warning',
      source: 'aws.ec2',
      region: 'us-east-1',
      time: new Date(plane.now()).toISOString(),
      'detail-type': EC2_EVENT_TYPES.spotWarning,
      detail: { 'instance-id': warned.instanceId, 'instance-action': 'terminate' },
    });
    const [replace] = commandsOf(plane, 'replace');
    if (!replace) throw new Error('no replace command');
    plane.clock.advance(2 * MINUTE);

    await twice(() => runLeaseCommand(plane, replace));

    expect(plane.compute.live().map((i) => i.instanceId)).not.toContain(warned.instanceId);
    expect(plane.compute.live()).toHaveLength(1);
    expect(plane.tasks.runner.sent.map((s) => s.target.instanceId)).toEqual([
      warned.instanceId,
      plane.compute.live()[0]?.instanceId,
    ]);
    expect(plane.tasks.runner.cancelled.map((c) => c.commandId)).toEqual(['cmd-1']);
    expect(peek(plane, leaseId)?.task).toMatchObject({ status: 'STARTING', attempt: 2 });
    expect(plane.events.ofType('LeaseReplaced')).toHaveLength(1);
  });
});

describe("SSM's status-change event delivered twice moves the task once", () => {
  it('the end of a task, delivered twice at once, releases the lease in that delivery, once, and closes its bill once, at the end', async () => {
    const plane = fakeControlPlane();
    const { leaseId, provision } = await taskLease(plane);
    await runLeaseCommand(plane, provision);
    const instanceId = peek(plane, leaseId)?.instances[0]?.instanceId ?? '';
    plane.clock.advance(20 * SECOND);
    const started = ssmEvent(plane, instanceId, 'cmd-1', 'InProgress');
    expect((await twice(() => handleCommandEvent(plane, started))).sort()).toEqual(['RUNNING', 'unchanged']);

    plane.clock.advance(5 * MINUTE);
    const endedAtMs = plane.now();
    const ended = ssmEvent(plane, instanceId, 'cmd-1', 'Success');
    expect((await twice(() => handleCommandEvent(plane, ended))).sort()).toEqual(['SUCCEEDED', 'unchanged']);
    expect(await handleCommandEvent(plane, ended)).toBe('unchanged');
    // Released by the end's own delivery: no command had to run for it.
    expect(peek(plane, leaseId)?.status).toBe('RELEASED');
    expect(plane.compute.live()).toHaveLength(0);
    // The backstop command, held back, finds nothing left to do when it comes, twice at once.
    expect(plane.commands.sent.map((q) => (q.visibleAtMs - endedAtMs) / SECOND)).toContain(
      TASK_RELEASE_BACKSTOP_SECONDS,
    );
    plane.clock.advance(TASK_RELEASE_BACKSTOP_SECONDS * SECOND);
    await deliverReleases(plane);

    const lease = peek(plane, leaseId);
    const launchedAtMs = lease?.instances[0]?.launchedAtMs ?? 0;
    expect(lease?.status).toBe('RELEASED');
    expect(commandsOf(plane, 'release')).toHaveLength(1);
    expect(plane.events.ofType('TaskEnded')).toHaveLength(1);
    expect(plane.events.ofType('LeaseReleased')).toHaveLength(1);
    expect(lease?.instances[0]).toMatchObject({
      meteringOpen: false,
      endedAtMs,
      billedSeconds: (endedAtMs - launchedAtMs) / SECOND,
    });
    const charged = plane.ledger.usage
      .flatMap((u) => u.charges)
      .filter((charge) => charge.dimension === 'compute')
      .reduce((sum, charge) => sum + charge.seconds, 0);
    expect(charged).toBe((endedAtMs - launchedAtMs) / SECOND);
    expect(plane.tasks.runner.sent).toHaveLength(1);
  });
});

describe("a delivery of a task's end that dies before the lease is released", () => {
  async function endedTask(plane: FakeControlPlane) {
    const { leaseId, provision } = await taskLease(plane);
    await runLeaseCommand(plane, provision);
    const instanceId = peek(plane, leaseId)?.instances[0]?.instanceId ?? '';
    plane.clock.advance(20 * SECOND);
    await handleCommandEvent(plane, ssmEvent(plane, instanceId, 'cmd-1', 'InProgress'));
    plane.clock.advance(5 * MINUTE);
    return { leaseId, endedAtMs: plane.now(), ended: ssmEvent(plane, instanceId, 'cmd-1', 'Success') };
  }

  it('after writing the end but before asking for the release: the redelivery releases it, billed to the end', async () => {
    const plane = fakeControlPlane();
    const { leaseId, endedAtMs, ended } = await endedTask(plane);
    plane.leases.faults.crashAfterNext('saveTask');
    await expect(handleCommandEvent(plane, ended)).rejects.toThrow();
    expect(peek(plane, leaseId)).toMatchObject({ status: 'RUNNING', task: { status: 'SUCCEEDED' } });

    plane.clock.advance(3 * MINUTE);
    expect(await handleCommandEvent(plane, ended)).toBe('unchanged');

    expect(peek(plane, leaseId)?.status).toBe('RELEASED');
    expect(peek(plane, leaseId)?.instances[0]).toMatchObject({ meteringOpen: false, endedAtMs });
    expect(plane.events.ofType('LeaseReleased')).toHaveLength(1);
  });

  it('midway through ending the instances: the redelivery finishes, once, and the backstop finds it done', async () => {
    const plane = fakeControlPlane();
    const { leaseId, endedAtMs, ended } = await endedTask(plane);
    plane.compute.faults.failNext('terminate', new Error('EC2 unreachable'));
    await expect(handleCommandEvent(plane, ended)).rejects.toThrow('EC2 unreachable');
    expect(peek(plane, leaseId)?.status).toBe('RELEASING');

    plane.clock.advance(3 * MINUTE);
    expect(await handleCommandEvent(plane, ended)).toBe('unchanged');
    plane.clock.advance(TASK_RELEASE_BACKSTOP_SECONDS * SECOND);
    await deliverReleases(plane);

    expect(peek(plane, leaseId)?.status).toBe('RELEASED');
    expect(plane.compute.live()).toHaveLength(0);
    expect(peek(plane, leaseId)?.instances[0]).toMatchObject({ meteringOpen: false, endedAtMs });
    expect(plane.events.ofType('LeaseReleased')).toHaveLength(1);
    expect(commandsOf(plane, 'release')).toHaveLength(1);
  });
});

describe("SSM's event that comes before its attempt's command id is written", () => {
  it('is handed back for redelivery, not dropped, and moves the task once the id is recorded', async () => {
    const plane = fakeControlPlane();
    const { leaseId, provision } = await taskLease(plane);
    await runLeaseCommand(plane, provision);
    const lease = peek(plane, leaseId);
    const task = lease?.task;
    const instanceId = lease?.instances[0]?.instanceId ?? '';
    if (!task) throw new Error('the lease has no task');
    // As the sender left it between SendCommand and writing the id.
    const sending = {
      ...task,
      attempts: task.attempts.map((a) => ({ ...a, commandId: undefined, status: 'SENDING' as const })),
      revision: task.revision + 1,
    };
    expect(await plane.leases.saveTask(TENANT, leaseId, sending)).toBe(true);

    const started = ssmEvent(plane, instanceId, 'cmd-1', 'InProgress');
    await expect(handleCommandEvent(plane, started)).rejects.toBeInstanceOf(TaskCommandNotRecordedError);
    expect(peek(plane, leaseId)?.task?.status).toBe('STARTING');

    await advanceTask(plane, TENANT, leaseId, {
      type: 'sent',
      attempt: 1,
      commandId: 'cmd-1',
      atMs: plane.now(),
    });
    expect(await handleCommandEvent(plane, started)).toBe('RUNNING');
  });
});

describe('a task whose lease finds no capacity', () => {
  // #19: no capacity no longer fails the lease; it waits QUEUED, and the task waits with it.
  it('waits with its QUEUED lease, sending nothing, and fails with it at QUEUE_TIMEOUT', async () => {
    const plane = fakeControlPlane();
    plane.compute.insufficientCapacity({ mode: 'on-demand', instanceType: 'g5.xlarge' });
    const lease = await requestLease(plane, {
      workload: 'training',
      maxWaitMinutes: 5,
      task: taskSpecSchema.parse({ command: ['python3', '-c', 'print(1)'] }),
    });
    const provision: LeaseCommand = { type: 'provision', tenantId: TENANT, leaseId: lease.leaseId };
    expect((await runLeaseCommand(plane, provision)).outcome).toBe('queued');
    expect(peek(plane, lease.leaseId)?.status).toBe('QUEUED');
    expect(peek(plane, lease.leaseId)?.task?.status).toBe('WAITING');

    plane.clock.advance(5 * MINUTE);
    await admitQueued(plane);
    const failed = peek(plane, lease.leaseId);
    expect(failed?.status).toBe('FAILED');
    expect(failed?.failureReason).toContain('QUEUE_TIMEOUT');
    expect(failed?.task).toMatchObject({ status: 'FAILED', endedAtMs: plane.now() });
    expect(failed?.task?.failureReason).toContain('the lease failed');
    expect(plane.events.ofType('TaskEnded').map((e) => e.detail.status)).toEqual(['FAILED']);
    expect(plane.tasks.runner.sent).toEqual([]);
    expect(commandsOf(plane, 'release')).toEqual([]);
  });
});
