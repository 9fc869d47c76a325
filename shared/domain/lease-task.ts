import type { LeaseView } from './lease';

/*
 * The slice of a lease's task that logs, sessions and the CLI read, as agreed
 * with the task core (issue #16): the core stores `task` on the lease item and
 * owns its state machine. This file is the one place the rest reads it through;
 * once the core's own type is on main, these re-export it.
 */

export const TASK_STATUSES = ['WAITING', 'STARTING', 'RUNNING', 'SUCCEEDED', 'FAILED', 'STOPPED'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** One run of the task on one instance, through one SSM command (absent until the command is sent). */
export interface TaskAttempt {
  readonly attempt: number;
  readonly instanceId: string;
  readonly commandId?: string | undefined;
  readonly exitCode?: number | undefined;
}

export interface LeaseTask {
  readonly status: TaskStatus;
  readonly attempt: number;
  readonly exitCode?: number | undefined;
  readonly attempts: readonly TaskAttempt[];
}

export const isTaskEnded = (status: TaskStatus): boolean =>
  status === 'SUCCEEDED' || status === 'FAILED' || status === 'STOPPED';

/** The lease's task, or none. */
export function taskOf(lease: LeaseView): LeaseTask | undefined {
  return (lease as LeaseView & { readonly task?: LeaseTask }).task;
}
