import { describe, expect, it } from 'vitest';
import {
  chooseAttempt,
  decodeLogCursor,
  encodeLogCursor,
  mergeLogEvents,
} from '../../../shared/domain/task-logs';
import { taskLogStreams } from '../../../shared/domain/tasks/log-streams';

const attempt = (n: number) => ({
  attempt: n,
  instanceId: `i-${n}`,
  commandId: `cmd-${n}`,
  status: 'SUCCEEDED' as const,
});

describe('task log streams and pages', () => {
  it("names each attempt's streams under the lease's own prefix, which no other lease's starts with", () => {
    expect(taskLogStreams('lease_a', 1).stdout).toBe('lease_a/attempt-1/stdout');
    expect(taskLogStreams('lease_a', 2).stderr).toBe('lease_a/attempt-2/stderr');
    expect(taskLogStreams('lease_ab', 1).stdout.startsWith('lease_a/')).toBe(false);
  });

  it('round-trips a cursor and refuses tokens that are not ours', () => {
    const cursor = { stdout: 'f/123', stderr: 'f/456' };
    expect(decodeLogCursor(encodeLogCursor(cursor))).toEqual(cursor);
    expect(decodeLogCursor(encodeLogCursor({}))).toEqual({});
    expect(decodeLogCursor('not-base64-json')).toBeUndefined();
    expect(decodeLogCursor(Buffer.from('{"stdin":"x"}').toString('base64url'))).toBeUndefined();
    expect(decodeLogCursor(Buffer.from('{"stdout":1}').toString('base64url'))).toBeUndefined();
    expect(decodeLogCursor(Buffer.from('[1]').toString('base64url'))).toBeUndefined();
  });

  it('merges the streams in time order, stdout first at the same instant', () => {
    const merged = mergeLogEvents([
      [
        { timestampMs: 2, output: 'stdout', message: 'b' },
        { timestampMs: 5, output: 'stdout', message: 'd' },
      ],
      [
        { timestampMs: 1, output: 'stderr', message: 'a' },
        { timestampMs: 5, output: 'stderr', message: 'e' },
      ],
    ]);
    expect(merged.map((e) => e.message)).toEqual(['a', 'b', 'd', 'e']);
  });

  it('chooses the attempt asked for, else the latest, else none', () => {
    const attempts = [attempt(2), attempt(1), attempt(3)];
    expect(chooseAttempt(attempts, undefined)?.attempt).toBe(3);
    expect(chooseAttempt(attempts, 1)?.attempt).toBe(1);
    expect(chooseAttempt(attempts, 4)).toBeUndefined();
    expect(chooseAttempt([], undefined)).toBeUndefined();
  });
});
