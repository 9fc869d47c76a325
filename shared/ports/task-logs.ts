import type { TaskLogEvent, TaskOutput } from '../domain/task-logs';

export interface TaskLogRead {
  readonly stream: string;
  readonly output: TaskOutput;
  /** Where the last page ended; absent: from the start (or `startTimeMs`). */
  readonly forwardToken?: string | undefined;
  readonly startTimeMs?: number | undefined;
  readonly limit: number;
}

export interface TaskLogPage {
  readonly events: readonly TaskLogEvent[];
  /** Where this page ended; absent when the stream does not exist yet. */
  readonly forwardToken?: string | undefined;
}

/** The task output group of CloudWatch Logs, one stream at a time. */
export interface TaskLogs {
  read(request: TaskLogRead): Promise<TaskLogPage>;
}
