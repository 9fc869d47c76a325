import { maskedEnv } from '../../shared/domain/tasks/masking';
import { ATTEMPT_STATUSES, TASK_STATUSES, type TaskState } from '../../shared/domain/tasks/state';
import { instant, responseObject } from './openapi-parts';

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

/** A lease's task as the API shows it: env values masked when the name looks secret, secrets by reference only. */
export function taskBody(task: TaskState) {
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
  },
  ['image', 'workdir', 'maxRuntimeMinutes', 'exitCode', 'startedAt', 'endedAt', 'failureReason'],
  {
    description: "The lease's task: what runs on it and where it is (WAITING for the machine until it runs)",
  },
);
