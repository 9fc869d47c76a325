import {
  type CloudWatchLogsClient,
  GetLogEventsCommand,
  ResourceNotFoundException,
} from '@aws-sdk/client-cloudwatch-logs';
import type { TaskLogPage, TaskLogRead, TaskLogs } from '../ports/task-logs';

/** The task output group, read a stream at a time with GetLogEvents (oldest first). */
export class CloudWatchTaskLogs implements TaskLogs {
  constructor(
    private readonly client: CloudWatchLogsClient,
    private readonly logGroupName: string,
  ) {}

  async read(request: TaskLogRead): Promise<TaskLogPage> {
    try {
      const page = await this.client.send(
        new GetLogEventsCommand({
          logGroupName: this.logGroupName,
          logStreamName: request.stream,
          startFromHead: true,
          limit: request.limit,
          nextToken: request.forwardToken,
          // A forward token already says where to go on from.
          startTime: request.forwardToken === undefined ? request.startTimeMs : undefined,
        }),
      );
      return {
        events: (page.events ?? []).map((event) => ({
          timestampMs: event.timestamp ?? 0,
          output: request.output,
          message: event.message ?? '',
        })),
        forwardToken: page.nextForwardToken,
      };
    } catch (error) {
      // SSM creates the stream at the first line the task writes: until then there is nothing to read.
      if (error instanceof ResourceNotFoundException)
        return { events: [], forwardToken: request.forwardToken };
      throw error;
    }
  }
}
