import { percentileOf } from '../demand-profile';
import type { LeaseView, Workload } from '../lease';
import { perUtcDay } from '../utc-days';

/** A lease's task as the demand figures read it. */
export interface TaskOfWorkload {
  readonly workload: Workload;
  readonly requestedAtMs: number;
  /** The first attempt seen running; absent while none has. */
  readonly startedAtMs?: number | undefined;
  /** The attempts seen running, to their end (open: still running). */
  readonly runs: readonly { readonly fromMs: number; readonly toMs?: number | undefined }[];
}

/** Task time of a window: seconds the tasks ran, and the wait from lease request to task start. */
export interface TaskTime {
  readonly runSeconds: number;
  /** Of the tasks whose lease was requested in the window and that started (seconds). */
  readonly waitSeconds: { readonly tasks: number; readonly p50: number | null; readonly p95: number | null };
}

export interface TaskTimeOfWindow extends TaskTime {
  readonly byWorkload: Readonly<Partial<Record<Workload, TaskTime>>>;
}

export const NO_TASK_TIME: TaskTimeOfWindow = {
  runSeconds: 0,
  waitSeconds: { tasks: 0, p50: null, p95: null },
  byWorkload: {},
};

/**
 * The tasks of the leases, from the task state on each lease. That state is
 * written conditionally on its revision and an attempt's start and end are
 * set once, so a duplicate event delivery cannot count twice here.
 */
export function tasksOf(leases: readonly LeaseView[]): TaskOfWorkload[] {
  return leases.flatMap((lease) => {
    if (!lease.task) return [];
    const runs = lease.task.attempts.flatMap((a) =>
      a.startedAtMs === undefined ? [] : [{ fromMs: a.startedAtMs, toMs: a.endedAtMs }],
    );
    return [
      {
        workload: lease.workload,
        requestedAtMs: lease.createdAtMs,
        startedAtMs: lease.task.startedAtMs,
        runs,
      },
    ];
  });
}

function timeOf(tasks: readonly TaskOfWorkload[], fromMs: number, toMs: number, nowMs: number): TaskTime {
  let runMs = 0;
  const waits: number[] = [];
  for (const task of tasks) {
    for (const run of task.runs)
      runMs += Math.max(0, Math.min(run.toMs ?? nowMs, toMs) - Math.max(run.fromMs, fromMs));
    if (task.startedAtMs !== undefined && task.requestedAtMs >= fromMs && task.requestedAtMs < toMs)
      waits.push(Math.max(0, task.startedAtMs - task.requestedAtMs) / 1000);
  }
  return {
    runSeconds: Math.round(runMs / 1000),
    waitSeconds: { tasks: waits.length, p50: percentileOf(waits, 0.5), p95: percentileOf(waits, 0.95) },
  };
}

/**
 * Task time within [fromMs, toMs), overall and by workload: the seconds the
 * attempts ran (an attempt still running counts to `nowMs`), and the wait from
 * lease request to the task's first start, of the tasks requested in the
 * window (as the profile counts the wait to RUNNING of the leases requested
 * that day). A workload appears once it has a task that ran or waited.
 */
export function taskTimeOf(
  tasks: readonly TaskOfWorkload[],
  fromMs: number,
  toMs: number,
  nowMs: number,
): TaskTimeOfWindow {
  const byWorkload: Partial<Record<Workload, TaskTime>> = {};
  for (const workload of new Set(tasks.map((t) => t.workload))) {
    const time = timeOf(
      tasks.filter((t) => t.workload === workload),
      fromMs,
      toMs,
      nowMs,
    );
    if (time.runSeconds > 0 || time.waitSeconds.tasks > 0) byWorkload[workload] = time;
  }
  return { ...timeOf(tasks, fromMs, toMs, nowMs), byWorkload };
}

/** Task time of each UTC day of [fromMs, min(toMs, nowMs)), keyed by day (YYYY-MM-DD). */
export function dailyTaskTime(
  tasks: readonly TaskOfWorkload[],
  fromMs: number,
  toMs: number,
  nowMs: number,
): Map<string, TaskTimeOfWindow> {
  return perUtcDay(fromMs, Math.min(toMs, nowMs), (from, to) => taskTimeOf(tasks, from, to, nowMs));
}
