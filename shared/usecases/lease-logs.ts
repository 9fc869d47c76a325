import {
  chooseAttempt,
  encodeLogCursor,
  type LogCursor,
  mergeLogEvents,
  TASK_OUTPUTS,
  type TaskLogEvent,
} from '../domain/task-logs';
import { taskLogStreams } from '../domain/tasks/log-streams';
import { isTaskEnded, type TaskStatus } from '../domain/tasks/state';
import { LeaseHasNoTaskError, LeaseNotFoundError, UnknownTaskAttemptError } from '../errors';
import type { LeaseRepository } from '../ports/lease-repository';
import type { TaskLogs } from '../ports/task-logs';

export interface LogsQuery {
  /** Default: the latest attempt. */
  readonly attempt?: number | undefined;
  /** Only events at or after this instant (ignored when `cursor` says where to go on from). */
  readonly sinceMs?: number | undefined;
  /** Events per stream (stdout, stderr) in this page. */
  readonly limit: number;
  readonly cursor?: LogCursor | undefined;
}

export interface LogsPage {
  /** Absent while the task has not started an attempt. */
  readonly attempt?: number | undefined;
  readonly taskStatus: TaskStatus;
  readonly exitCode?: number | undefined;
  readonly events: readonly TaskLogEvent[];
  /** Ask again with it for what comes next (also once the task ended: it may still be flushing). */
  readonly nextToken: string;
  /** The task ended and this page found nothing more: a follower can stop. */
  readonly complete: boolean;
}

/** A page of the output of one attempt of a lease's task, stdout and stderr in time order. */
export async function readLeaseLogs(
  deps: { readonly leases: Pick<LeaseRepository, 'get'>; readonly taskLogs: TaskLogs },
  tenantId: string,
  leaseId: string,
  query: LogsQuery,
): Promise<LogsPage> {
  const lease = await deps.leases.get(tenantId, leaseId);
  if (!lease) throw new LeaseNotFoundError(leaseId);
  const { task } = lease;
  if (!task) throw new LeaseHasNoTaskError(leaseId);
  const attempt = chooseAttempt(task.attempts, query.attempt);
  if (query.attempt !== undefined && attempt === undefined) {
    throw new UnknownTaskAttemptError(leaseId, query.attempt);
  }
  const ended = isTaskEnded(task.status);
  const status = { taskStatus: task.status, exitCode: task.exitCode };
  const { commandId } = attempt ?? {};
  if (!attempt || commandId === undefined) {
    // No command sent yet: nothing can have been written.
    return {
      attempt: attempt?.attempt,
      ...status,
      events: [],
      nextToken: encodeLogCursor({}),
      complete: ended,
    };
  }
  const pages = await Promise.all(
    TASK_OUTPUTS.map((output) =>
      deps.taskLogs.read({
        // The lease's own streams: only its machine credentials can have written them.
        stream: taskLogStreams(leaseId, attempt.attempt)[output],
        output,
        forwardToken: query.cursor?.[output],
        startTimeMs: query.sinceMs,
        limit: query.limit,
      }),
    ),
  );
  const cursor: LogCursor = Object.fromEntries(
    TASK_OUTPUTS.flatMap((output, i) => {
      const token = pages[i]?.forwardToken;
      return token === undefined ? [] : [[output, token]];
    }),
  );
  const events = mergeLogEvents(pages.map((page) => page.events));
  // An earlier attempt is over once a later one exists, whatever the task's status.
  const attemptEnded = ended || task.attempts.some((other) => other.attempt > attempt.attempt);
  return {
    attempt: attempt.attempt,
    ...status,
    events,
    nextToken: encodeLogCursor(cursor),
    complete: attemptEnded && events.length === 0,
  };
}
