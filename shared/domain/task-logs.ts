import type { TaskAttempt } from './tasks/state';

/** The two streams SSM Run Command writes an invocation's output to. */
export const TASK_OUTPUTS = ['stdout', 'stderr'] as const;
export type TaskOutput = (typeof TASK_OUTPUTS)[number];

export interface TaskLogEvent {
  readonly timestampMs: number;
  readonly output: TaskOutput;
  readonly message: string;
}

/** Where a page of one stream ends: CloudWatch's forward token, absent while the stream does not exist. */
export type LogCursor = Partial<Record<TaskOutput, string>>;

/**
 * The page token the API hands out: both streams' forward tokens, so a
 * follower asking again with it gets only what was written since (CloudWatch
 * returns a forward token even at the end of a stream, which is what makes
 * tailing work).
 */
export const encodeLogCursor = (cursor: LogCursor): string =>
  Buffer.from(JSON.stringify(cursor)).toString('base64url');

/** The cursor of a token, or undefined when it is not one of ours. */
export function decodeLogCursor(token: string): LogCursor | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    const entries = Object.entries(value);
    const valid = entries.every(
      ([key, cursor]) => (TASK_OUTPUTS as readonly string[]).includes(key) && typeof cursor === 'string',
    );
    return valid ? (Object.fromEntries(entries) as LogCursor) : undefined;
  } catch {
    return undefined;
  }
}

/** The streams' events as one, in time order; the sort is stable, so at one instant the first stream's come first. */
export const mergeLogEvents = (streams: readonly (readonly TaskLogEvent[])[]): TaskLogEvent[] =>
  streams.flat().sort((a, b) => a.timestampMs - b.timestampMs);

/** The attempt asked for, or the latest; undefined when there is none such. */
export function chooseAttempt(
  attempts: readonly TaskAttempt[],
  wanted: number | undefined,
): TaskAttempt | undefined {
  if (wanted !== undefined) return attempts.find((attempt) => attempt.attempt === wanted);
  return attempts.reduce<TaskAttempt | undefined>(
    (latest, attempt) => (latest === undefined || attempt.attempt > latest.attempt ? attempt : latest),
    undefined,
  );
}
