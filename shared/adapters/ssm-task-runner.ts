import {
  CancelCommandCommand,
  GetCommandInvocationCommand,
  ListCommandsCommand,
  SendCommandCommand,
  type SSMClient,
} from '@aws-sdk/client-ssm';
import { commandPhase } from '../domain/tasks/command-events';
import { type TaskRunner, TaskRunnerError, type TaskTarget } from '../ports/task-runner';

const DOCUMENT = 'AWS-RunShellScript';

/** Codes that mean the service has no CancelCommand (moto answers so). */
const CANNOT_CANCEL = new Set([
  'NotImplementedException',
  'NotImplemented',
  'InvalidAction',
  'UnknownOperationException',
]);
/** The invocation ended already or is unknown: nothing to cancel. */
const NOTHING_TO_CANCEL = new Set(['InvalidCommandId', 'InvalidInstanceId', 'DuplicateInstanceId']);

const codeOf = (error: unknown) => (error instanceof Error ? error.name : 'Unknown');
const statusOf = (error: unknown) =>
  (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode ?? 0;

/**
 * SSM Run Command, one client per region. No CloudWatch output: the SSM agent
 * would write it with the instance role, which reaches no lease's streams;
 * the attempt's machine ships its output with the lease's own credentials.
 */
export class SsmTaskRunner implements TaskRunner {
  constructor(private readonly client: (region: string) => SSMClient) {}

  async send(
    target: TaskTarget,
    commands: readonly string[],
    timeoutSeconds: number,
    comment?: string,
  ): Promise<string> {
    try {
      const result = await this.client(target.region).send(
        new SendCommandCommand({
          DocumentName: DOCUMENT,
          InstanceIds: [target.instanceId],
          Parameters: { commands: [...commands], executionTimeout: [String(timeoutSeconds)] },
          TimeoutSeconds: 600,
          Comment: comment,
        }),
      );
      const commandId = result.Command?.CommandId;
      if (!commandId) throw new TaskRunnerError('NoCommandId', 'SendCommand', 'SSM returned no command id');
      return commandId;
    } catch (error) {
      if (error instanceof TaskRunnerError) throw error;
      throw new TaskRunnerError(codeOf(error), 'SendCommand', String(error));
    }
  }

  async sentWith(target: TaskTarget, comment: string): Promise<string | undefined> {
    try {
      let nextToken: string | undefined;
      do {
        const page = await this.client(target.region).send(
          new ListCommandsCommand({ InstanceId: target.instanceId, NextToken: nextToken }),
        );
        const found = page.Commands?.find((c) => c.DocumentName === DOCUMENT && c.Comment === comment);
        if (found?.CommandId) return found.CommandId;
        nextToken = page.NextToken;
      } while (nextToken);
      return undefined;
    } catch (error) {
      throw new TaskRunnerError(codeOf(error), 'ListCommands', String(error));
    }
  }

  async cancel(target: TaskTarget, commandId: string): Promise<boolean> {
    try {
      await this.client(target.region).send(
        new CancelCommandCommand({ CommandId: commandId, InstanceIds: [target.instanceId] }),
      );
      return true;
    } catch (error) {
      const code = codeOf(error);
      if (NOTHING_TO_CANCEL.has(code)) return true;
      // moto has no CancelCommand: it answers an HTML 500 (no SSM error code). Terminating the instance stops it.
      if (CANNOT_CANCEL.has(code) || (statusOf(error) >= 500 && code !== 'InternalServerError')) return false;
      throw new TaskRunnerError(code, 'CancelCommand', String(error));
    }
  }

  async result(target: TaskTarget, commandId: string): ReturnType<TaskRunner['result']> {
    try {
      const invocation = await this.client(target.region).send(
        new GetCommandInvocationCommand({ CommandId: commandId, InstanceId: target.instanceId }),
      );
      const phase = commandPhase(invocation.Status ?? '');
      const outcome = phase === 'in-progress' || phase === 'pending' ? ('Pending' as const) : phase;
      const code = invocation.ResponseCode;
      const ended = Date.parse(invocation.ExecutionEndDateTime ?? '');
      return {
        outcome,
        ...(code === undefined || code < 0 ? {} : { exitCode: code }),
        ...(outcome === 'Pending' || Number.isNaN(ended) ? {} : { endedAtMs: ended }),
      };
    } catch (error) {
      throw new TaskRunnerError(codeOf(error), 'GetCommandInvocation', String(error));
    }
  }
}
