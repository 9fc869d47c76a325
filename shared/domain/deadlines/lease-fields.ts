import * as z from '../../zod';

/** What a restart from checkpoint costs when the lease does not say: a boot from the image and a restore. */
export const DEFAULT_RESTART_MINUTES = 5;
/** A month of work on one machine: longer jobs should be split, and no spot trace covers more. */
export const MAX_WORK_MINUTES = 30 * 24 * 60;
/** Three hours: a restart longer than that means the job does not really checkpoint. */
export const MAX_RESTART_MINUTES = 180;

const MS_PER_MINUTE = 60_000;

/** The codes a bad deadline is refused with, in the issue's `params.code` (the API maps them to a 400). */
export const DEADLINE_ISSUE_CODES = ['DEADLINE_IN_PAST', 'DEADLINE_BEFORE_WORK'] as const;
export type DeadlineIssueCode = (typeof DEADLINE_ISSUE_CODES)[number];

const WHOLE_MINUTES = 'must be a whole number of minutes';
const wholeMinutes = (min: number, max: number, missing = WHOLE_MINUTES) =>
  z
    .number({ error: (issue) => (issue.input === undefined ? missing : WHOLE_MINUTES) })
    .check(
      z.int(WHOLE_MINUTES),
      z.gte(min, `must be at least ${min} minute${min === 1 ? '' : 's'}`),
      z.lte(max, `must be at most ${max} minutes`),
    );

/**
 * Each field alone, without the clock: what the task schema (and the OpenAPI
 * document) takes; the checks against now are `deadlineFieldsSchema`'s.
 */
export const deadlineFieldShapes = {
  deadline: z.iso
    .datetime({
      offset: true,
      // The three go together: the field missing is named, not "expected string, received undefined".
      error: (issue) =>
        issue.input === undefined
          ? 'deadline is needed with workMinutes and restartMinutes'
          : 'must be a date-time with an offset, such as 2026-12-03T09:00:00Z',
    })
    .check(z.describe('Finish the work by then (a date-time with an offset); needs workMinutes')),
  workMinutes: wholeMinutes(1, MAX_WORK_MINUTES, 'workMinutes is needed with a deadline').check(
    z.describe('Minutes of work the task needs on one machine of its type'),
  ),
  restartMinutes: wholeMinutes(0, MAX_RESTART_MINUTES).check(
    z.describe(`Minutes a restart from checkpoint costs (default ${DEFAULT_RESTART_MINUTES})`),
  ),
};

export interface DeadlineFields {
  readonly deadline: string;
  readonly workMinutes: number;
  readonly restartMinutes: number;
}

function checkDeadline(nowMs: number) {
  return (fields: DeadlineFields, ctx: z.core.$RefinementCtx<DeadlineFields>): void => {
    const deadlineMs = Date.parse(fields.deadline);
    if (deadlineMs <= nowMs) {
      ctx.addIssue({
        code: 'custom',
        message: 'deadline is in the past',
        path: ['deadline'],
        params: { code: 'DEADLINE_IN_PAST' satisfies DeadlineIssueCode },
      });
    } else if (deadlineMs < nowMs + fields.workMinutes * MS_PER_MINUTE) {
      ctx.addIssue({
        code: 'custom',
        message: `deadline leaves less than the ${fields.workMinutes} minutes of work`,
        path: ['deadline'],
        params: { code: 'DEADLINE_BEFORE_WORK' satisfies DeadlineIssueCode },
      });
    }
  };
}

/**
 * The deadline fields of a lease with a task, checked against `nowMs` (the
 * request's arrival): a date-time with an offset, after now plus the work;
 * whole minutes of work and of restart in range. The time is an argument so
 * that the same request is judged the same way in tests and in the API.
 */
export function deadlineFieldsSchema(nowMs: number) {
  return z
    .strictObject({
      deadline: deadlineFieldShapes.deadline,
      workMinutes: deadlineFieldShapes.workMinutes,
      restartMinutes: z._default(deadlineFieldShapes.restartMinutes, DEFAULT_RESTART_MINUTES),
    })
    .check(z.superRefine(checkDeadline(nowMs)));
}

/** The fields in the units the policy reads. */
export interface DeadlineTerms {
  readonly deadlineMs: number;
  readonly workMs: number;
  readonly restartMs: number;
}

export function deadlineTerms(fields: DeadlineFields): DeadlineTerms {
  return {
    deadlineMs: Date.parse(fields.deadline),
    workMs: fields.workMinutes * MS_PER_MINUTE,
    restartMs: fields.restartMinutes * MS_PER_MINUTE,
  };
}
