import { taskDeadline } from '../../shared/domain/deadlines/job-record';
import {
  DEFAULT_RESTART_MINUTES,
  MAX_RESTART_MINUTES,
  MAX_WORK_MINUTES,
} from '../../shared/domain/deadlines/lease-fields';
import type { StoredDecision } from '../../shared/domain/deadlines/policy-input';
import { jobProgress, taskRuns } from '../../shared/domain/deadlines/progress';
import { deadlineStatus } from '../../shared/domain/deadlines/status';
import { maskedEnv } from '../../shared/domain/tasks/masking';
import { ATTEMPT_STATUSES, TASK_STATUSES, type TaskState } from '../../shared/domain/tasks/state';
import { instant, responseObject } from './openapi-parts';

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

/**
 * The deadline part of a task: its terms, and with `nowMs` its progress, the
 * slack and the decision in words. The work saved is what the latest decision
 * counted (it read the task's checkpoints); the time run since counts as unsaved.
 */
function deadlineBody(task: TaskState, decision: StoredDecision | undefined, nowMs: number | undefined) {
  const terms = taskDeadline(task.spec);
  const { workMinutes, restartMinutes = DEFAULT_RESTART_MINUTES } = task.spec;
  if (!terms) return {};
  if (nowMs === undefined) return { deadline: iso(terms.deadlineMs), workMinutes, restartMinutes };
  const reports = decision ? [{ atMs: decision.atMs, doneMs: decision.doneMs }] : [];
  const progress = jobProgress(taskRuns(task.attempts, terms.restartMs), reports, terms.workMs, nowMs);
  const end =
    task.endedAtMs === undefined
      ? undefined
      : { succeeded: task.status === 'SUCCEEDED', endedAtMs: task.endedAtMs };
  return deadlineStatus(terms, progress, decision, end);
}

/**
 * A lease's task as the API shows it: env values masked when the name looks
 * secret, secrets by reference only; with `nowMs` (GET of one lease), its
 * deadline progress and the policy's latest decision.
 */
export function taskBody(task: TaskState, decision: StoredDecision | undefined, nowMs?: number) {
  const { spec } = task;
  return {
    status: task.status,
    image: spec.image,
    command: spec.command,
    env: maskedEnv(spec.env),
    secrets: spec.secrets ?? {},
    workdir: spec.workdir,
    maxRuntimeMinutes: spec.maxRuntimeMinutes,
    onExit: spec.onExit,
    maxAttempts: spec.maxAttempts,
    retryOnFailure: spec.retryOnFailure,
    attempt: task.attempt,
    exitCode: task.exitCode,
    startedAt: iso(task.startedAtMs),
    endedAt: iso(task.endedAtMs),
    failureReason: task.failureReason,
    attempts: task.attempts.map((a) => ({
      attempt: a.attempt,
      instanceId: a.instanceId,
      commandId: a.commandId,
      status: a.status,
      startedAt: iso(a.startedAtMs),
      endedAt: iso(a.endedAtMs),
      exitCode: a.exitCode,
    })),
    ...deadlineBody(task, decision, nowMs),
  };
}

const stringMap = { type: 'object', additionalProperties: { type: 'string' } } as const;

export const taskOpenApiSchema = responseObject(
  {
    status: { type: 'string', enum: TASK_STATUSES },
    image: { type: 'string' },
    command: { oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
    env: {
      ...stringMap,
      description: 'Values of names that look secret (KEY, SECRET, TOKEN, PASSWORD, CREDENTIAL) show as ****',
    },
    secrets: {
      ...stringMap,
      description: 'Names and the references they are read from on the instance; never values',
    },
    workdir: { type: 'string' },
    maxRuntimeMinutes: { type: 'integer' },
    onExit: { type: 'string', enum: ['release', 'keep'] },
    maxAttempts: { type: 'integer' },
    retryOnFailure: { type: 'boolean' },
    attempt: { type: 'integer', description: 'The current attempt, 1-based; 0 before the first' },
    exitCode: { type: 'integer' },
    startedAt: instant,
    endedAt: instant,
    failureReason: { type: 'string' },
    attempts: {
      type: 'array',
      items: responseObject(
        {
          attempt: { type: 'integer' },
          instanceId: { type: 'string' },
          commandId: { type: 'string' },
          status: { type: 'string', enum: ATTEMPT_STATUSES },
          startedAt: instant,
          endedAt: instant,
          exitCode: { type: 'integer' },
        },
        ['commandId', 'startedAt', 'endedAt', 'exitCode'],
      ),
    },
    deadline: { ...instant, description: 'Finish the work by then' },
    workMinutes: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_WORK_MINUTES,
      description: 'Minutes of work on one machine of its type',
    },
    restartMinutes: {
      type: 'integer',
      minimum: 0,
      maximum: MAX_RESTART_MINUTES,
      description: 'Minutes a restart from checkpoint costs',
    },
    progress: responseObject(
      {
        savedMinutes: {
          type: 'integer',
          description: "Work in the latest checkpoint, as the deadline policy's latest decision read it",
        },
        unsavedMinutes: { type: 'integer', description: 'Work since, lost if interrupted' },
        percent: { type: 'integer', description: 'Saved work as a share of workMinutes' },
      },
      [],
      { description: 'GET /v1/leases/{id} only: the work done so far' },
    ),
    slackMinutes: {
      type: 'integer',
      description:
        'Minutes the job could still lose before it must run on-demand; negative once it must; absent once the task ended',
    },
    decision: {
      type: 'string',
      description:
        "The deadline policy's current decision, in words; once the task ended, when it ended against the deadline",
    },
  },
  [
    'image',
    'workdir',
    'maxRuntimeMinutes',
    'exitCode',
    'startedAt',
    'endedAt',
    'failureReason',
    'deadline',
    'workMinutes',
    'restartMinutes',
    'progress',
    'slackMinutes',
    'decision',
  ],
  {
    description: "The lease's task: what runs on it and where it is (WAITING for the machine until it runs)",
  },
);
