import { ClientError, type ErrorDetail } from '../../client-error';
import * as z from '../../zod';
import type { RentalMode } from '../lease';
import type { TaskSpec } from '../tasks/spec';
import { type DeadlineFields, type DeadlineIssueCode, deadlineFieldsSchema } from './lease-fields';

/** Why a deadline cannot go with the rest of a lease request (the API's 400 `code`). */
export type DeadlineRequestCode = 'DEADLINE_WITHOUT_TASK' | 'DEADLINE_WITH_ON_DEMAND';

export interface DeadlineRequestShape {
  readonly hasTask: boolean;
  readonly mode?: RentalMode | undefined;
}

/**
 * A deadline is a promise about a task's work, kept by choosing between spot
 * and on-demand: it needs a task, and a lease that forces on-demand leaves the
 * policy nothing to choose. Null: the deadline may go with the request.
 */
export function deadlineRequestProblem(request: DeadlineRequestShape): DeadlineRequestCode | null {
  if (!request.hasTask) return 'DEADLINE_WITHOUT_TASK';
  if (request.mode === 'on-demand') return 'DEADLINE_WITH_ON_DEMAND';
  return null;
}

const MESSAGES: Record<DeadlineRequestCode, string> = {
  DEADLINE_WITHOUT_TASK: 'a deadline needs a task: it is a promise about the work the task does',
  DEADLINE_WITH_ON_DEMAND:
    'a deadline with mode on-demand leaves nothing to choose: drop the mode or the deadline',
};

/** A deadline refused with the rest of the request: 400, its code, nothing written. */
export class DeadlineRequestError extends ClientError {
  constructor(code: DeadlineRequestCode, field = 'deadline') {
    super(400, code, MESSAGES[code], field);
    this.name = 'DeadlineRequestError';
  }
}

/**
 * Deadline fields that do not hold against the clock or each other: 400 with
 * the first issue's code (`DEADLINE_IN_PAST`, `DEADLINE_BEFORE_WORK`, else
 * VALIDATION_FAILED) and its field under `task.`.
 */
export class DeadlineFieldsError extends ClientError {
  constructor(code: DeadlineIssueCode | 'VALIDATION_FAILED', details: readonly ErrorDetail[]) {
    const [first] = details;
    super(400, code, details.map((d) => `${d.path}: ${d.message}`).join('; '), first?.path, details);
    this.name = 'DeadlineFieldsError';
  }
}

const TASK_DEADLINE_KEYS = ['deadline', 'workMinutes', 'restartMinutes'] as const;

/**
 * The task's deadline terms, judged at `nowMs` (the request's arrival) with
 * the lease's mode; undefined for a task that names none of them. Throws the
 * 400 a bad one gets, before anything is written.
 */
export function taskDeadlineFields(
  task: TaskSpec,
  mode: RentalMode | undefined,
  nowMs: number,
): DeadlineFields | undefined {
  const named = Object.fromEntries(
    TASK_DEADLINE_KEYS.filter((key) => task[key] !== undefined).map((key) => [key, task[key]]),
  );
  if (Object.keys(named).length === 0) return undefined;
  const problem = deadlineRequestProblem({ hasTask: true, mode });
  if (problem) throw new DeadlineRequestError(problem, 'task.deadline');
  const result = z.safeParse(deadlineFieldsSchema(nowMs), named);
  if (result.success) return result.data;
  const details = result.error.issues.map((issue) => ({
    path: ['task', ...issue.path].join('.'),
    message: issue.message,
  }));
  const code = result.error.issues
    .map((issue) => (issue as { params?: { code?: DeadlineIssueCode } }).params?.code)
    .find((c) => c !== undefined);
  throw new DeadlineFieldsError(code ?? 'VALIDATION_FAILED', details);
}
