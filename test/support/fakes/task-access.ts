import type { PolicyDocument } from '../../../shared/domain/iam-policy';
import type { TaskLogEvent } from '../../../shared/domain/task-logs';
import { taskSpecSchema } from '../../../shared/domain/tasks/spec';
import { newTask, type TaskAttempt, type TaskState } from '../../../shared/domain/tasks/state';
import type { ScopedCredentials, TemporaryCredentials } from '../../../shared/ports/scoped-credentials';
import type { TaskLogPage, TaskLogRead, TaskLogs } from '../../../shared/ports/task-logs';
import type { TaskRunner, TaskTarget } from '../../../shared/ports/task-runner';

/**
 * Log streams in memory with CloudWatch's forward tokens: a token is the index
 * of the next event, handed back even at the end, and a stream that does not
 * exist reads as empty without a token.
 */
export class FakeTaskLogs implements TaskLogs {
  private readonly streams = new Map<string, { timestampMs: number; message: string }[]>();

  write(stream: string, events: readonly { timestampMs: number; message: string }[]): void {
    this.streams.set(stream, [...(this.streams.get(stream) ?? []), ...events]);
  }

  async read(request: TaskLogRead): Promise<TaskLogPage> {
    const stream = this.streams.get(request.stream);
    if (!stream) return { events: [], forwardToken: request.forwardToken };
    const from =
      request.forwardToken === undefined
        ? stream.findIndex((event) => event.timestampMs >= (request.startTimeMs ?? 0))
        : Number(request.forwardToken);
    const start = from < 0 ? stream.length : from;
    const page = stream.slice(start, start + request.limit);
    const events: TaskLogEvent[] = page.map((event) => ({ ...event, output: request.output }));
    return { events, forwardToken: String(start + page.length) };
  }
}

/**
 * SSM as the task core sees it: every send gets the next command id and is
 * kept, with its script and comment; every cancel is kept; an ended
 * invocation reads as a success.
 */
export class FakeTaskRunner implements TaskRunner {
  readonly sent: {
    target: TaskTarget;
    commandId: string;
    commands: string[];
    comment?: string | undefined;
  }[] = [];
  readonly cancelled: { target: TaskTarget; commandId: string }[] = [];

  async send(target: TaskTarget, commands: readonly string[], _timeoutSeconds: number, comment?: string) {
    const commandId = `cmd-${this.sent.length + 1}`;
    this.sent.push({ target, commandId, commands: [...commands], comment });
    return commandId;
  }

  async sentWith(target: TaskTarget, comment: string) {
    return this.sent.find((s) => s.target.instanceId === target.instanceId && s.comment === comment)
      ?.commandId;
  }

  async cancel(target: TaskTarget, commandId: string) {
    this.cancelled.push({ target, commandId });
    return true;
  }

  async result(_target: TaskTarget, _commandId: string) {
    return { outcome: 'Success' as const, exitCode: 0 };
  }
}

/** Records each mint and answers with credentials valid for the asked duration from `nowMs`. */
export class FakeScopedCredentials implements ScopedCredentials {
  readonly minted: { sessionName: string; policy: PolicyDocument; durationSeconds: number }[] = [];

  constructor(private readonly nowMs: () => number) {}

  async mint(request: Parameters<ScopedCredentials['mint']>[0]): Promise<TemporaryCredentials> {
    this.minted.push(request);
    return {
      accessKeyId: `ASIA${this.minted.length}`,
      secretAccessKey: 'secret',
      sessionToken: 'token',
      expiresAtMs: this.nowMs() + request.durationSeconds * 1000,
    };
  }
}

/** A lease's task as the task core stores it, at the given status and attempts (spec: a trivial command). */
export function storedTask(fields: {
  readonly status: TaskState['status'];
  readonly attempt: number;
  readonly exitCode?: number;
  readonly attempts: readonly (Pick<TaskAttempt, 'attempt' | 'instanceId'> & Partial<TaskAttempt>)[];
}): TaskState {
  const spec = taskSpecSchema.parse({ command: ['true'] });
  return {
    ...newTask(spec),
    ...fields,
    attempts: fields.attempts.map((attempt) => ({ status: 'RUNNING', ...attempt })),
  };
}
