import { describe, expect, it } from 'vitest';
import type { LeaseView, Workload } from '../../../shared/domain/lease';
import type { TaskAttempt } from '../../../shared/domain/tasks/state';
import {
  dailyTaskTime,
  type TaskOfWorkload,
  tasksOf,
  taskTimeOf,
} from '../../../shared/domain/tasks/task-time';
import { storedTask } from '../../support/fakes/task-access';

const DAY = Date.parse('2026-11-10T00:00:00Z');
const H = 3_600_000;

function task(
  workload: Workload,
  requestedAtMs: number,
  runs: { fromMs: number; toMs?: number }[],
): TaskOfWorkload {
  return { workload, requestedAtMs, startedAtMs: runs[0]?.fromMs, runs };
}

function leaseWithTask(workload: Workload, createdAtMs: number, attempts: Partial<TaskAttempt>[]): LeaseView {
  const stored = storedTask({
    status: 'RUNNING',
    attempt: attempts.length,
    attempts: attempts.map((a, i) => ({ attempt: i + 1, instanceId: `i-${i}`, ...a })),
  });
  return {
    tenantId: 't',
    leaseId: `l-${createdAtMs}`,
    workload,
    gpus: 1,
    instanceType: 'g5.xlarge',
    status: 'RUNNING',
    createdAtMs,
    updatedAtMs: createdAtMs,
    instances: [],
    task: { ...stored, startedAtMs: attempts.find((a) => a.startedAtMs !== undefined)?.startedAtMs },
  };
}

describe('task time', () => {
  // Training: requested 23:00 the day before, started 00:10 (70 min), ran until 02:00 of day 2 (26h50m).
  // Batch: two tasks requested on day 1, waiting 60 s and 300 s, running one hour each.
  const tasks = [
    task('training', DAY - H, [{ fromMs: DAY + 10 * 60_000, toMs: DAY + 26 * H }]),
    task('batch', DAY + 6 * H, [{ fromMs: DAY + 6 * H + 60_000, toMs: DAY + 7 * H + 60_000 }]),
    task('batch', DAY + 8 * H, [{ fromMs: DAY + 8 * H + 300_000, toMs: DAY + 9 * H + 300_000 }]),
  ];

  it('splits the seconds run across days and counts the wait on the day of the request', () => {
    const days = dailyTaskTime(tasks, DAY, DAY + 2 * 86_400_000, DAY + 3 * 86_400_000);
    const day1 = days.get('2026-11-10');
    const day2 = days.get('2026-11-11');

    expect(day1?.runSeconds).toBe((24 * H - 10 * 60_000 + 2 * H) / 1000);
    expect(day1?.byWorkload.training?.runSeconds).toBe((24 * H - 10 * 60_000) / 1000);
    // The training lease was requested the day before: its wait is not this day's.
    expect(day1?.byWorkload.training?.waitSeconds).toEqual({ tasks: 0, p50: null, p95: null });
    expect(day1?.byWorkload.batch).toEqual({
      runSeconds: 7200,
      waitSeconds: { tasks: 2, p50: 60, p95: 300 },
    });
    expect(day1?.waitSeconds).toEqual({ tasks: 2, p50: 60, p95: 300 });
    expect(day2?.runSeconds).toBe(7200);
    expect(Object.keys(day2?.byWorkload ?? {})).toEqual(['training']);
  });

  it('counts the wait of a task requested in the window from request to first start', () => {
    const previousDay = taskTimeOf(tasks, DAY - 86_400_000, DAY, DAY + 86_400_000);
    expect(previousDay.waitSeconds).toEqual({ tasks: 1, p50: 4200, p95: 4200 });
    expect(previousDay.runSeconds).toBe(0);
  });

  it('runs an attempt still running to now, and never past the window', () => {
    const running = [task('inference', DAY, [{ fromMs: DAY + H }])];
    expect(taskTimeOf(running, DAY, DAY + 86_400_000, DAY + 3 * H).runSeconds).toBe(7200);
    expect(dailyTaskTime(running, DAY, DAY + 86_400_000, DAY + 3 * H).get('2026-11-10')?.runSeconds).toBe(
      7200,
    );
  });

  it('leaves out a workload with neither run time nor a started task in the window', () => {
    const waiting: TaskOfWorkload = { workload: 'batch', requestedAtMs: DAY, runs: [] };
    expect(taskTimeOf([waiting], DAY, DAY + H, DAY + H)).toEqual({
      runSeconds: 0,
      waitSeconds: { tasks: 0, p50: null, p95: null },
      byWorkload: {},
    });
  });
});

describe('the tasks of leases', () => {
  it('reads every attempt seen running (a retry after a spot reclaim too) and the first start', () => {
    const lease = leaseWithTask('training', DAY, [
      { startedAtMs: DAY + 60_000, endedAtMs: DAY + H, status: 'INTERRUPTED' },
      { startedAtMs: DAY + 2 * H },
    ]);
    expect(tasksOf([lease])).toEqual([
      {
        workload: 'training',
        requestedAtMs: DAY,
        startedAtMs: DAY + 60_000,
        runs: [
          { fromMs: DAY + 60_000, toMs: DAY + H },
          { fromMs: DAY + 2 * H, toMs: undefined },
        ],
      },
    ]);
  });

  it('skips an attempt never seen running, and leases without a task', () => {
    const sentOnly = leaseWithTask('batch', DAY, [{ status: 'SENT' }]);
    const noTask: LeaseView = { ...sentOnly, leaseId: 'bare', task: undefined };
    expect(tasksOf([sentOnly, noTask])).toEqual([
      { workload: 'batch', requestedAtMs: DAY, startedAtMs: undefined, runs: [] },
    ]);
  });
});
