import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SpotTraceFiles } from '../../../shared/adapters/spot-trace-files';
import { taskSpecSchema } from '../../../shared/domain/tasks/spec';
import type { TaskEvent } from '../../../shared/domain/tasks/state';
import { buildAudit } from '../../../shared/usecases/audit/build-audit';
import { advanceTask, startTaskOnLease } from '../../../shared/usecases/tasks';
import { type FakeControlPlane, fakeControlPlane } from '../../support/fakes/control-plane';
import { runningLease, TENANT } from '../../support/fakes/leases';
import { FakeScopedCredentials, FakeTaskRunner } from '../../support/fakes/task-access';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DEC_1 = Date.parse('2026-12-01T00:30:00Z');

const auditDeps = (plane: FakeControlPlane) => ({
  ...plane,
  metrics: plane.metricReader,
  spotTraces: new SpotTraceFiles(fileURLToPath(new URL('../../fixtures/audit/spot-data', import.meta.url))),
});

/** A training lease whose task waits, runs three hours and succeeds; every SSM event is delivered twice. */
async function taskRunThreeHours(plane: FakeControlPlane) {
  const deps = {
    ...plane,
    tasks: {
      runner: new FakeTaskRunner(),
      checkpointBucket: 'checkpoints',
      taskOutputLogGroup: 'gpurent-task-output',
      machineAccess: new FakeScopedCredentials(plane.now),
    },
  };
  const lease = await runningLease(plane, {
    task: taskSpecSchema.parse({ command: ['python', 'train.py'], onExit: 'keep' }),
  });
  plane.clock.advance(2 * MINUTE);
  expect(await startTaskOnLease(deps, TENANT, lease.leaseId)).toBe('STARTING');
  const startedAtMs = plane.clock.advance(30_000);
  const inProgress: TaskEvent = { type: 'in-progress', commandId: 'cmd-1', atMs: startedAtMs };
  expect(await advanceTask(deps, TENANT, lease.leaseId, inProgress)).toBe('RUNNING');
  expect(await advanceTask(deps, TENANT, lease.leaseId, inProgress)).toBe('unchanged');
  const ended: TaskEvent = {
    type: 'ended',
    commandId: 'cmd-1',
    outcome: 'Success',
    exitCode: 0,
    atMs: plane.clock.advance(3 * HOUR),
  };
  expect(await advanceTask(deps, TENANT, lease.leaseId, ended)).toBe('SUCCEEDED');
  expect(await advanceTask(deps, TENANT, lease.leaseId, ended)).toBe('unchanged');
  // A late redelivery of the start, after the end, moves nothing either.
  expect(await advanceTask(deps, TENANT, lease.leaseId, inProgress)).toBe('unchanged');
  return { lease, waitSeconds: (startedAtMs - lease.createdAtMs) / 1000 };
}

describe('task time in the monthly audit', () => {
  it('counts the seconds a task ran and its wait from request to start once, however often SSM says so', async () => {
    const plane = fakeControlPlane();
    const { lease, waitSeconds } = await taskRunThreeHours(plane);
    plane.clock.set(DEC_1);

    const audit = await buildAudit(auditDeps(plane), TENANT, '2026-11', DEC_1);

    const training = { runSeconds: 3 * 3600, waitSeconds: { tasks: 1, p50: waitSeconds, p95: waitSeconds } };
    expect(waitSeconds).toBeGreaterThanOrEqual(150);
    expect(audit.tasks.month).toEqual({ ...training, byWorkload: { training } });
    const day = new Date(lease.createdAtMs).toISOString().slice(0, 10);
    expect(audit.tasks.daily.find((d) => d.day === day)).toEqual({
      day,
      ...training,
      byWorkload: { training },
    });
    expect(audit.tasks.daily).toHaveLength(30);
    expect(audit.tasks.daily.filter((d) => d.runSeconds > 0)).toHaveLength(1);
  });

  it('has no task time for a month whose leases ran no task', async () => {
    const plane = fakeControlPlane();
    await runningLease(plane);
    plane.clock.set(DEC_1);

    const audit = await buildAudit(auditDeps(plane), TENANT, '2026-11', DEC_1);

    expect(audit.tasks.month).toEqual({
      runSeconds: 0,
      waitSeconds: { tasks: 0, p50: null, p95: null },
      byWorkload: {},
    });
  });
});
