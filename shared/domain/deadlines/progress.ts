/**
 * A task's progress as the control plane knows it: the work its latest
 * checkpoint saved (what `GPURENT_PROGRESS_FILE` on the instance last said),
 * or, for a task that reports no progress, the time it ran up to the last
 * checkpoint it reported; plus the time run since, not yet saved.
 */
export interface CheckpointReport {
  /** Work saved, as the task wrote it to its progress file; absent: the task reports only checkpoint times. */
  readonly doneMs?: number | undefined;
  readonly atMs: number;
}

export interface TaskRun {
  readonly startedAtMs: number;
  /** Billed time a (re)start spends booting and restoring before the work moves on. */
  readonly restartMs: number;
  /** Absent while the run goes on. */
  readonly endedAtMs?: number | undefined;
}

export interface JobProgress {
  /** Work in the latest checkpoint: what a restart resumes from, and what the policy counts. */
  readonly savedMs: number;
  /** Work done since that checkpoint by the run in progress: lost if it is interrupted. */
  readonly unsavedMs: number;
}

/** The work a run had done by `atMs`: its time less the restart, never negative. */
function runWorkMs(run: TaskRun, atMs: number): number {
  const end = Math.min(atMs, run.endedAtMs ?? atMs);
  return Math.max(0, end - run.startedAtMs - run.restartMs);
}

/**
 * Progress from the runs and checkpoint reports so far, capped at the work.
 * A report with `doneMs` is taken as written; one without counts the work its
 * runs had done by then (each run resumes from the checkpoint before it).
 */
export function jobProgress(
  runs: readonly TaskRun[],
  reports: readonly CheckpointReport[],
  workMs: number,
  nowMs: number,
): JobProgress {
  let savedMs = 0;
  let savedAtMs = Number.NEGATIVE_INFINITY;
  for (const report of [...reports].sort((a, b) => a.atMs - b.atMs)) {
    const inferred = runs.reduce((sum, run) => sum + runWorkMs(run, report.atMs), 0);
    savedMs = Math.max(savedMs, report.doneMs ?? inferred);
    savedAtMs = report.atMs;
  }
  const running = runs.find((run) => run.endedAtMs === undefined);
  const unsavedMs = running
    ? Math.max(0, runWorkMs(running, nowMs) - runWorkMs(running, Math.max(savedAtMs, running.startedAtMs)))
    : 0;
  const saved = Math.min(workMs, savedMs);
  return { savedMs: saved, unsavedMs: Math.min(workMs - saved, unsavedMs) };
}

/** The runs of a task: each attempt that started, every one paying the job's restart. */
export function taskRuns(
  attempts: readonly { readonly startedAtMs?: number | undefined; readonly endedAtMs?: number | undefined }[],
  restartMs: number,
): TaskRun[] {
  return attempts.flatMap((a) =>
    a.startedAtMs === undefined ? [] : [{ startedAtMs: a.startedAtMs, endedAtMs: a.endedAtMs, restartMs }],
  );
}
