import type { TaskSpec } from './spec';

/**
 * WAITING: for an instance (the first, or a replacement). STARTING: the
 * command is sent. RUNNING: the instance runs it. SUCCEEDED / FAILED /
 * STOPPED: ended (exit 0; non-zero, over its time or out of attempts; stopped
 * by a release).
 */
export const TASK_STATUSES = ['WAITING', 'STARTING', 'RUNNING', 'SUCCEEDED', 'FAILED', 'STOPPED'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const ATTEMPT_STATUSES = [
  'SENDING',
  'SENT',
  'RUNNING',
  'SUCCEEDED',
  'FAILED',
  'CANCELLED',
  'INTERRUPTED',
] as const;
export type AttemptStatus = (typeof ATTEMPT_STATUSES)[number];

/** How SSM reports the end of a command invocation. */
export type CommandOutcome = 'Success' | 'Failed' | 'Cancelled' | 'TimedOut';

/** `timeout` (the maxRuntimeMinutes guard in the script) exits with 124. */
export const RUNTIME_EXCEEDED_EXIT_CODE = 124;

export interface TaskAttempt {
  readonly attempt: number;
  readonly instanceId: string;
  readonly commandId?: string | undefined;
  readonly status: AttemptStatus;
  readonly startedAtMs?: number | undefined;
  readonly endedAtMs?: number | undefined;
  readonly exitCode?: number | undefined;
}

/** A lease's task: what was asked and where it is. `revision` orders conditional writes. */
export interface TaskState {
  readonly spec: TaskSpec;
  readonly status: TaskStatus;
  /** The current attempt, 1-based; 0 before the first. */
  readonly attempt: number;
  readonly exitCode?: number | undefined;
  readonly startedAtMs?: number | undefined;
  readonly endedAtMs?: number | undefined;
  readonly failureReason?: string | undefined;
  readonly attempts: readonly TaskAttempt[];
  readonly revision: number;
}

export type TaskEvent =
  /** An instance of the lease runs (first launch, or the replacement of a reclaimed one). */
  | { readonly type: 'instance-ready'; readonly instanceId: string; readonly atMs: number }
  | { readonly type: 'sent'; readonly attempt: number; readonly commandId: string; readonly atMs: number }
  /** SendCommand failed: the claim of the attempt is undone, so the retried message sends it. */
  | { readonly type: 'send-failed'; readonly attempt: number }
  | { readonly type: 'in-progress'; readonly commandId: string; readonly atMs: number }
  | {
      readonly type: 'ended';
      readonly commandId: string;
      readonly outcome: CommandOutcome;
      readonly exitCode?: number | undefined;
      readonly atMs: number;
    }
  /** The instance of the attempt is taken back (spot): the attempt ends, a replacement may carry on. */
  | { readonly type: 'instance-lost'; readonly instanceId: string; readonly atMs: number }
  /** The lease is being released: the task stops. */
  | { readonly type: 'stop'; readonly atMs: number }
  /** The lease failed (no capacity for it or for a replacement): its task can never run. */
  | { readonly type: 'lease-failed'; readonly atMs: number };

export type TaskEffect =
  | { readonly kind: 'send'; readonly attempt: number; readonly instanceId: string }
  | { readonly kind: 'cancel'; readonly commandId: string; readonly instanceId: string }
  /** onExit release: release the lease, billing to the task's end. */
  | { readonly kind: 'release'; readonly atMs: number };

export interface TaskStep {
  readonly task: TaskState;
  readonly effects: readonly TaskEffect[];
  readonly changed: boolean;
}

export function newTask(spec: TaskSpec): TaskState {
  return { spec, status: 'WAITING', attempt: 0, attempts: [], revision: 0 };
}

export function isTaskEnded(status: TaskStatus): boolean {
  return status === 'SUCCEEDED' || status === 'FAILED' || status === 'STOPPED';
}

const unchanged = (task: TaskState): TaskStep => ({ task, effects: [], changed: false });

function withAttempt(task: TaskState, attempt: number, change: Partial<TaskAttempt>): TaskState['attempts'] {
  return task.attempts.map((a) => (a.attempt === attempt ? { ...a, ...change } : a));
}

function current(task: TaskState): TaskAttempt | undefined {
  return task.attempts.find((a) => a.attempt === task.attempt);
}

/** The task ends: its fields, and the lease's release when the tenant asked for it. */
function end(
  task: TaskState,
  status: 'SUCCEEDED' | 'FAILED' | 'STOPPED',
  atMs: number,
  fields: { exitCode?: number | undefined; failureReason?: string | undefined },
  effects: TaskEffect[] = [],
): TaskStep {
  const ended: TaskState = { ...task, status, endedAtMs: atMs, ...fields };
  const release: TaskEffect[] =
    status !== 'STOPPED' && task.spec.onExit === 'release' ? [{ kind: 'release', atMs }] : [];
  return { task: ended, effects: [...effects, ...release], changed: true };
}

function startOn(task: TaskState, instanceId: string): TaskStep {
  const attempt = task.attempt + 1;
  return {
    task: {
      ...task,
      status: 'STARTING',
      attempt,
      attempts: [...task.attempts, { attempt, instanceId, status: 'SENDING' }],
    },
    effects: [{ kind: 'send', attempt, instanceId }],
    changed: true,
  };
}

/**
 * SSM's events come in any order: an InProgress that arrives after its
 * attempt moved on (an instant task's Success came first) still gives the
 * attempt, and the task, the instant it started.
 */
function lateStart(task: TaskState, event: Extract<TaskEvent, { type: 'in-progress' }>): TaskStep {
  const record = task.attempts.find((a) => a.commandId === event.commandId);
  if (!record || record.startedAtMs !== undefined) return unchanged(task);
  return {
    task: {
      ...task,
      startedAtMs: Math.min(task.startedAtMs ?? event.atMs, event.atMs),
      attempts: withAttempt(task, record.attempt, { startedAtMs: event.atMs }),
    },
    effects: [],
    changed: true,
  };
}

/**
 * Whether the current attempt was sent to `instanceId` but its command id is
 * not recorded yet: an event of that instance's command may be this
 * attempt's, arrived before the sender wrote the id, and must be retried, not
 * dropped (dropped, the attempt would stay STARTING for good).
 */
export function awaitsCommandId(task: TaskState, instanceId: string, commandId: string): boolean {
  const record = current(task);
  return (
    task.status === 'STARTING' &&
    record !== undefined &&
    record.commandId === undefined &&
    record.instanceId === instanceId &&
    !task.attempts.some((a) => a.commandId === commandId)
  );
}

function failureOf(task: TaskState, outcome: CommandOutcome, exitCode: number | undefined): string {
  const limit = task.spec.maxRuntimeMinutes;
  if (outcome === 'TimedOut' || (exitCode === RUNTIME_EXCEEDED_EXIT_CODE && limit !== undefined))
    return `ran longer than maxRuntimeMinutes (${limit ?? '?'}) and was stopped`;
  return `attempt ${task.attempt} exited with code ${exitCode ?? 'unknown'}`;
}

function onEnded(task: TaskState, event: Extract<TaskEvent, { type: 'ended' }>): TaskStep {
  const record = task.attempts.find((a) => a.commandId === event.commandId);
  if (!record || record.endedAtMs !== undefined) return unchanged(task);
  const attemptStatus: AttemptStatus =
    event.outcome === 'Success' ? 'SUCCEEDED' : event.outcome === 'Cancelled' ? 'CANCELLED' : 'FAILED';
  const exitCode = event.outcome === 'Success' ? 0 : event.exitCode;
  const recorded: TaskState = {
    ...task,
    attempts: withAttempt(task, record.attempt, { status: attemptStatus, endedAtMs: event.atMs, exitCode }),
  };
  // An earlier attempt (stopped, or on a reclaimed instance) ending says nothing about the task.
  if (record.attempt !== task.attempt || isTaskEnded(task.status) || task.status === 'WAITING')
    return { task: recorded, effects: [], changed: true };
  if (event.outcome === 'Success') return end(recorded, 'SUCCEEDED', event.atMs, { exitCode: 0 });
  if (event.outcome === 'Cancelled')
    return end(recorded, 'STOPPED', event.atMs, {
      failureReason: 'the command was cancelled outside gpurent',
    });
  const overTime =
    event.outcome === 'TimedOut' ||
    (event.exitCode === RUNTIME_EXCEEDED_EXIT_CODE && task.spec.maxRuntimeMinutes !== undefined);
  if (!overTime && task.spec.retryOnFailure && task.attempt < task.spec.maxAttempts)
    return startOn(recorded, record.instanceId);
  return end(recorded, 'FAILED', event.atMs, {
    exitCode,
    failureReason: failureOf(task, event.outcome, exitCode),
  });
}

/**
 * The one transition function of a task: its next state and what must be
 * done (send an attempt, cancel one, release the lease). Pure; the caller
 * writes the state conditionally on `revision` before acting, so two
 * deliveries of one event never act twice.
 */
export function applyTaskEvent(task: TaskState, event: TaskEvent): TaskStep {
  const step = transition(task, event);
  return step.changed ? { ...step, task: { ...step.task, revision: task.revision + 1 } } : step;
}

function transition(task: TaskState, event: TaskEvent): TaskStep {
  switch (event.type) {
    case 'instance-ready':
      // A task never runs twice at once, and never past its attempts.
      if (task.status !== 'WAITING' || task.attempt >= task.spec.maxAttempts) return unchanged(task);
      return startOn(task, event.instanceId);
    case 'sent': {
      const record = current(task);
      if (event.attempt !== task.attempt || !record || record.commandId !== undefined) return unchanged(task);
      return {
        task: {
          ...task,
          attempts: withAttempt(task, task.attempt, { commandId: event.commandId, status: 'SENT' }),
        },
        effects: [],
        changed: true,
      };
    }
    case 'send-failed': {
      const record = current(task);
      if (event.attempt !== task.attempt || !record || record.commandId !== undefined) return unchanged(task);
      return {
        task: {
          ...task,
          status: 'WAITING',
          attempt: task.attempt - 1,
          attempts: task.attempts.filter((a) => a.attempt !== event.attempt),
        },
        effects: [],
        changed: true,
      };
    }
    case 'in-progress': {
      const record = current(task);
      if (task.status !== 'STARTING' || record?.commandId !== event.commandId) return lateStart(task, event);
      return {
        task: {
          ...task,
          status: 'RUNNING',
          startedAtMs: task.startedAtMs ?? event.atMs,
          attempts: withAttempt(task, task.attempt, { status: 'RUNNING', startedAtMs: event.atMs }),
        },
        effects: [],
        changed: true,
      };
    }
    case 'ended':
      return onEnded(task, event);
    case 'instance-lost': {
      const record = current(task);
      if (isTaskEnded(task.status) || task.status === 'WAITING' || record?.instanceId !== event.instanceId)
        return unchanged(task);
      const cancel: TaskEffect[] = record.commandId
        ? [{ kind: 'cancel', commandId: record.commandId, instanceId: record.instanceId }]
        : [];
      const lost: TaskState = {
        ...task,
        attempts: withAttempt(task, task.attempt, { status: 'INTERRUPTED', endedAtMs: event.atMs }),
      };
      if (task.attempt < task.spec.maxAttempts)
        return { task: { ...lost, status: 'WAITING' }, effects: cancel, changed: true };
      return end(
        lost,
        'FAILED',
        event.atMs,
        { failureReason: `its instance was reclaimed on the last of ${task.spec.maxAttempts} attempts` },
        cancel,
      );
    }
    case 'lease-failed': {
      if (isTaskEnded(task.status)) return unchanged(task);
      // No release effect: the lease already ended, FAILED.
      return {
        task: {
          ...task,
          status: 'FAILED',
          endedAtMs: event.atMs,
          failureReason: 'the lease failed before the task could finish: no capacity for it (see the lease)',
        },
        effects: [],
        changed: true,
      };
    }
    case 'stop': {
      if (isTaskEnded(task.status)) return unchanged(task);
      const record = current(task);
      const cancel: TaskEffect[] = record?.commandId
        ? [{ kind: 'cancel', commandId: record.commandId, instanceId: record.instanceId }]
        : [];
      const stopped: TaskState = record
        ? {
            ...task,
            attempts: withAttempt(task, record.attempt, { status: 'CANCELLED', endedAtMs: event.atMs }),
          }
        : task;
      return end(
        stopped,
        'STOPPED',
        event.atMs,
        { failureReason: 'stopped: the lease was released' },
        cancel,
      );
    }
  }
}

/**
 * The instant a lease released by its task's end bills to: the end of a task
 * that succeeded or failed with onExit release; otherwise none (the release's
 * own termination instant).
 */
export function taskReleaseInstant(task: TaskState | undefined): number | undefined {
  if (task?.spec.onExit !== 'release') return undefined;
  return task.status === 'SUCCEEDED' || task.status === 'FAILED' ? task.endedAtMs : undefined;
}
