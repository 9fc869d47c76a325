import { hours } from './guard';
import type { DeadlineJob, JobPolicyDecision } from './policy-input';
import type { JobProgress } from './progress';

const MS_PER_MINUTE = 60_000;

/** The deadline part of a lease as the API shows it. */
export interface DeadlineStatus {
  readonly deadline: string;
  readonly workMinutes: number;
  readonly restartMinutes: number;
  readonly progress: {
    readonly savedMinutes: number;
    readonly unsavedMinutes: number;
    readonly percent: number;
  };
  /** Minutes the job could still lose before it must run on-demand, at the latest decision; negative once it must. */
  readonly slackMinutes?: number;
  /** The policy's current decision in words, absent before the first; once the task ended, how it ended against the deadline. */
  readonly decision?: string;
}

/** How the task ended: it succeeded, or it failed or was stopped, at `endedAtMs`. */
export interface TaskEnd {
  readonly succeeded: boolean;
  readonly endedAtMs: number;
}

const minutes = (ms: number) => Math.floor(ms / MS_PER_MINUTE);

/**
 * The job's deadline, progress, slack and decision. Once its task ended no
 * decision is pending and there is no slack left to spend: the status says
 * when it ended against the deadline instead, and a task that succeeded did
 * all its work, whatever its last checkpoint said (one that never wrote a
 * progress file would otherwise show 0% done).
 */
export function deadlineStatus(
  job: Pick<DeadlineJob, 'deadlineMs' | 'workMs' | 'restartMs'>,
  progress: JobProgress,
  latest: JobPolicyDecision | undefined,
  end?: TaskEnd,
): DeadlineStatus {
  const done = end?.succeeded ? { savedMs: job.workMs, unsavedMs: 0 } : progress;
  const terms = {
    deadline: new Date(job.deadlineMs).toISOString(),
    workMinutes: minutes(job.workMs),
    restartMinutes: minutes(job.restartMs),
    progress: {
      savedMinutes: minutes(done.savedMs),
      unsavedMinutes: minutes(done.unsavedMs),
      percent: Math.floor((100 * done.savedMs) / job.workMs),
    },
  };
  if (end) return { ...terms, decision: endInWords(end, job.deadlineMs) };
  return latest
    ? { ...terms, slackMinutes: Math.floor(latest.slackMs / MS_PER_MINUTE), decision: latest.reason }
    : terms;
}

function endInWords(end: TaskEnd, deadlineMs: number): string {
  const margin = deadlineMs - end.endedAtMs;
  const when = margin >= 0 ? `${hours(margin)} before the deadline` : `${hours(-margin)} after the deadline`;
  return `none: the task ${end.succeeded ? 'succeeded' : 'ended without success'} ${when}`;
}
