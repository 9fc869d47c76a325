import type { CommandOutcome } from '../domain/tasks/state';
import type { ScopedCredentials } from './scoped-credentials';

/** Where one attempt runs. */
export interface TaskTarget {
  readonly instanceId: string;
  readonly region: string;
}

/** The slice of SSM Run Command a task needs. */
export interface TaskRunner {
  /** Sends a script to the instance (AWS-RunShellScript), an attempt's or a `comment`ed chore; returns the command id. */
  send(
    target: TaskTarget,
    commands: readonly string[],
    timeoutSeconds: number,
    comment?: string,
  ): Promise<string>;
  /** The id of a command already sent to the instance under `comment`, if there is one. */
  sentWith(target: TaskTarget, comment: string): Promise<string | undefined>;
  /**
   * Stops an attempt. `false` when the service cannot cancel it (the emulator
   * has no CancelCommand): the caller's termination of the instance stops it.
   */
  cancel(target: TaskTarget, commandId: string): Promise<boolean>;
  /**
   * How an ended invocation finished (SSM's status events carry no exit code),
   * and when, as SSM recorded it (`endedAtMs`, when it gives one).
   */
  result(
    target: TaskTarget,
    commandId: string,
  ): Promise<{ outcome: CommandOutcome | 'Pending'; exitCode?: number; endedAtMs?: number }>;
}

/**
 * What starting and stopping tasks needs: the runner, where attempts keep
 * their checkpoints and write their output, and the lease machine role.
 */
export interface TaskRunning {
  readonly runner: TaskRunner;
  readonly checkpointBucket: string;
  /** The task output log group's name: a lease's machine writes only its own streams of it. */
  readonly taskOutputLogGroup: string;
  /** The lease machine role, each credential narrowed to one lease (`leaseMachinePolicy`). */
  readonly machineAccess: ScopedCredentials;
}

/** SSM throttled or failed in a way a retry of the message may fix. */
export class TaskRunnerError extends Error {
  constructor(
    readonly code: string,
    readonly operation: string,
    message: string,
  ) {
    super(`${operation} failed (${code}): ${message}`);
    this.name = 'TaskRunnerError';
  }
}
