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
  /** The policy's current decision in words, absent before the first. */
  readonly decision?: string;
}

const minutes = (ms: number) => Math.floor(ms / MS_PER_MINUTE);

export function deadlineStatus(
  job: Pick<DeadlineJob, 'deadlineMs' | 'workMs' | 'restartMs'>,
  progress: JobProgress,
  latest: JobPolicyDecision | undefined,
): DeadlineStatus {
  return {
    deadline: new Date(job.deadlineMs).toISOString(),
    workMinutes: minutes(job.workMs),
    restartMinutes: minutes(job.restartMs),
    progress: {
      savedMinutes: minutes(progress.savedMs),
      unsavedMinutes: minutes(progress.unsavedMs),
      percent: Math.floor((100 * progress.savedMs) / job.workMs),
    },
    ...(latest ? { slackMinutes: Math.floor(latest.slackMs / MS_PER_MINUTE), decision: latest.reason } : {}),
  };
}
