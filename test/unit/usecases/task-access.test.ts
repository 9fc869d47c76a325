import { describe, expect, it } from 'vitest';
import type { LeaseView } from '../../../shared/domain/lease';
import { taskLogStreams } from '../../../shared/domain/tasks/log-streams';
import type { TaskState } from '../../../shared/domain/tasks/state';
import { LeaseHasNoTaskError, LeaseNotFoundError, LeaseNotRunningError } from '../../../shared/errors';
import { readLeaseLogs } from '../../../shared/usecases/lease-logs';
import { openLeaseSession } from '../../../shared/usecases/lease-session';
import { fakeControlPlane } from '../../support/fakes/control-plane';
import { requestLease, runningLease, TENANT } from '../../support/fakes/leases';
import { FakeScopedCredentials, FakeTaskLogs, storedTask } from '../../support/fakes/task-access';
import { allows } from '../../support/iam-policy';

/** The stream one output of a lease's attempt is shipped to, with the lease's own credentials. */
const logStream = (leaseId: string, a: { attempt: number }, output: 'stdout' | 'stderr') =>
  taskLogStreams(leaseId, a.attempt)[output];

const attempt = (n: number, instanceId: string) => ({
  attempt: n,
  instanceId,
  commandId: `cmd-${n}`,
});

/** The lease repository with a task on the lease, as the task core stores it. */
function withTask(plane: ReturnType<typeof fakeControlPlane>, task?: () => TaskState) {
  return {
    get: async (tenantId: string, leaseId: string): Promise<LeaseView | undefined> => {
      const lease = await plane.leases.get(tenantId, leaseId);
      return lease && task ? ({ ...lease, task: task() } as LeaseView) : lease;
    },
  };
}

describe("a lease's task output", () => {
  it('pages stdout and stderr of the latest attempt in time order, then follows with the token', async () => {
    const plane = fakeControlPlane();
    const lease = await runningLease(plane);
    const instanceId = lease.instances[0]?.instanceId ?? '';
    let task: TaskState = storedTask({
      status: 'RUNNING',
      attempt: 2,
      attempts: [attempt(1, 'i-old'), attempt(2, instanceId)],
    });
    const taskLogs = new FakeTaskLogs();
    const stream = (output: 'stdout' | 'stderr') => logStream(lease.leaseId, attempt(2, instanceId), output);
    taskLogs.write(logStream(lease.leaseId, attempt(1, 'i-old'), 'stdout'), [
      { timestampMs: 1, message: 'attempt one' },
    ]);
    taskLogs.write(stream('stdout'), [
      { timestampMs: 10, message: 'epoch 1' },
      { timestampMs: 30, message: 'epoch 2' },
    ]);
    taskLogs.write(stream('stderr'), [{ timestampMs: 20, message: 'warning' }]);
    const deps = { leases: withTask(plane, () => task), taskLogs };

    const first = await readLeaseLogs(deps, TENANT, lease.leaseId, { limit: 100 });
    expect(first.attempt).toBe(2);
    expect(first.events.map((e) => [e.output, e.message])).toEqual([
      ['stdout', 'epoch 1'],
      ['stderr', 'warning'],
      ['stdout', 'epoch 2'],
    ]);
    expect(first.complete).toBe(false);

    const cursor = (token: string) => JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    const idle = await readLeaseLogs(deps, TENANT, lease.leaseId, {
      limit: 100,
      cursor: cursor(first.nextToken),
    });
    expect(idle.events).toEqual([]);
    expect(idle.complete).toBe(false);

    taskLogs.write(stream('stdout'), [{ timestampMs: 40, message: 'done' }]);
    task = { ...task, status: 'SUCCEEDED', exitCode: 0 };
    const last = await readLeaseLogs(deps, TENANT, lease.leaseId, {
      limit: 100,
      cursor: cursor(idle.nextToken),
    });
    expect(last.events.map((e) => e.message)).toEqual(['done']);
    expect(last.complete).toBe(false);
    const end = await readLeaseLogs(deps, TENANT, lease.leaseId, {
      limit: 100,
      cursor: cursor(last.nextToken),
    });
    expect(end).toMatchObject({ events: [], complete: true, taskStatus: 'SUCCEEDED', exitCode: 0 });

    const earlier = await readLeaseLogs(deps, TENANT, lease.leaseId, { limit: 100, attempt: 1 });
    expect(earlier.events.map((e) => e.message)).toEqual(['attempt one']);
  });

  it('refuses a lease without a task (409), an unknown attempt, and another tenant (404)', async () => {
    const plane = fakeControlPlane();
    const lease = await runningLease(plane);
    const taskLogs = new FakeTaskLogs();
    await expect(
      readLeaseLogs({ leases: withTask(plane), taskLogs }, TENANT, lease.leaseId, { limit: 10 }),
    ).rejects.toBeInstanceOf(LeaseHasNoTaskError);
    const deps = {
      leases: withTask(plane, () => storedTask({ status: 'WAITING', attempt: 0, attempts: [] })),
      taskLogs,
    };
    await expect(readLeaseLogs(deps, TENANT, lease.leaseId, { limit: 10, attempt: 1 })).rejects.toMatchObject(
      {
        status: 404,
        code: 'TASK_ATTEMPT_NOT_FOUND',
      },
    );
    const sending = {
      leases: withTask(plane, () =>
        storedTask({
          status: 'STARTING',
          attempt: 1,
          attempts: [{ attempt: 1, instanceId: lease.instances[0]?.instanceId ?? '', status: 'SENDING' }],
        }),
      ),
      taskLogs,
    };
    expect(await readLeaseLogs(sending, TENANT, lease.leaseId, { limit: 10 })).toMatchObject({
      attempt: 1,
      events: [],
      complete: false,
    });
    const waiting = await readLeaseLogs(deps, TENANT, lease.leaseId, { limit: 10 });
    expect(waiting.attempt).toBeUndefined();
    expect(waiting).toMatchObject({ taskStatus: 'WAITING', events: [], complete: false });
    await expect(readLeaseLogs(deps, 'tenant-b', lease.leaseId, { limit: 10 })).rejects.toBeInstanceOf(
      LeaseNotFoundError,
    );
  });
});

describe('a session to a lease', () => {
  it("mints an hour's credentials scoped to the lease's instances and announces them", async () => {
    const plane = fakeControlPlane();
    const lease = await runningLease(plane, { gpus: 2, instanceType: 'g5.xlarge' });
    const sessions = new FakeScopedCredentials(plane.now);
    const session = await openLeaseSession({ ...plane, sessions }, TENANT, lease.leaseId);

    expect(session.credentials.expiresAtMs).toBe(plane.now() + 3_600_000);
    expect(session.instances.map((i) => i.instanceId).sort()).toEqual(
      lease.instances.map((i) => i.instanceId).sort(),
    );
    const policy = sessions.minted[0]?.policy;
    if (!policy) throw new Error('no credentials minted');
    for (const instance of session.instances) {
      expect(
        allows(policy, {
          action: 'ssm:StartSession',
          resource: `arn:aws:ec2:${instance.region}:123456789012:instance/${instance.instanceId}`,
          context: {
            'ssm:resourceTag/gpurent:lease': lease.leaseId,
            'ssm:resourceTag/gpurent:tenant': TENANT,
          },
        }),
      ).toBe(true);
    }
    expect(plane.events.ofType('LeaseSessionOpened')).toEqual([
      {
        type: 'LeaseSessionOpened',
        tenantId: TENANT,
        detail: {
          leaseId: lease.leaseId,
          instanceIds: session.instances.map((i) => i.instanceId),
          expiresAtMs: session.credentials.expiresAtMs,
        },
      },
    ]);
  });

  it('refuses a lease that is not RUNNING (409) and another tenant (404), minting nothing', async () => {
    const plane = fakeControlPlane();
    const pending = await requestLease(plane);
    const running = await runningLease(plane);
    const sessions = new FakeScopedCredentials(plane.now);
    await expect(openLeaseSession({ ...plane, sessions }, TENANT, pending.leaseId)).rejects.toBeInstanceOf(
      LeaseNotRunningError,
    );
    await expect(
      openLeaseSession({ ...plane, sessions }, 'tenant-b', running.leaseId),
    ).rejects.toBeInstanceOf(LeaseNotFoundError);
    expect(sessions.minted).toEqual([]);
    expect(plane.events.ofType('LeaseSessionOpened')).toEqual([]);
  });
});
