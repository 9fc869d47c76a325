import { ClientError } from '../../client-error';
import type { RentalMode } from '../lease';

/** Why a deadline cannot go with the rest of a lease request (the API's 400 `code`). */
export type DeadlineRequestCode = 'deadline-without-task' | 'deadline-with-on-demand';

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
  if (!request.hasTask) return 'deadline-without-task';
  if (request.mode === 'on-demand') return 'deadline-with-on-demand';
  return null;
}

const MESSAGES: Record<DeadlineRequestCode, string> = {
  'deadline-without-task': 'a deadline needs a task: it is a promise about the work the task does',
  'deadline-with-on-demand':
    'a deadline with mode on-demand leaves nothing to choose: drop the mode or the deadline',
};

/** A deadline refused with the rest of the request: 400, its code, nothing written. */
export class DeadlineRequestError extends ClientError {
  constructor(code: DeadlineRequestCode) {
    super(400, code, MESSAGES[code], 'deadline');
    this.name = 'DeadlineRequestError';
  }
}
