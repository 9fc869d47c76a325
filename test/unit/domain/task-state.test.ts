import { describe, expect, it } from 'vitest';
import { taskSpecSchema } from '../../../shared/domain/tasks/spec';
import {
  applyTaskEvent,
  awaitsCommandId,
  newTask,
  type TaskEvent,
  type TaskState,
  taskReleaseInstant,
} from '../../../shared/domain/tasks/state';
import * as z from '../../../shared/zod';

const spec = (fields: Record<string, unknown> = {}) =>
  z.parse(taskSpecSchema, { command: 'train', ...fields });

function run(task: TaskState, ...events: TaskEvent[]) {
  let state = task;
  const effects = [];
  for (const event of events) {
    const step = applyTaskEvent(state, event);
    state = step.task;
    effects.push(...step.effects);
  }
  return { task: state, effects };
}

const ready = (instanceId = 'i-1', atMs = 1_000): TaskEvent => ({ type: 'instance-ready', instanceId, atMs });
const sent = (attempt: number, commandId: string): TaskEvent => ({
  type: 'sent',
  attempt,
  commandId,
  atMs: 1_100,
});
const progress = (commandId: string): TaskEvent => ({ type: 'in-progress', commandId, atMs: 1_200 });
const ended = (
  commandId: string,
  outcome: 'Success' | 'Failed' | 'Cancelled' | 'TimedOut',
  exitCode?: number,
): TaskEvent => ({
  type: 'ended',
  commandId,
  outcome,
  exitCode,
  atMs: 5_000,
});

describe('the task state machine', () => {
  it('sends attempt 1 once the instance runs, and never a second time while it runs', () => {
    const first = applyTaskEvent(newTask(spec()), ready());
    expect(first.task).toMatchObject({ status: 'STARTING', attempt: 1, revision: 1 });
    expect(first.effects).toEqual([{ kind: 'send', attempt: 1, instanceId: 'i-1' }]);
    const again = applyTaskEvent(first.task, ready('i-2'));
    expect(again.changed).toBe(false);
    expect(again.effects).toEqual([]);
  });

  it('records the command, runs and succeeds: exit 0, released at the end with onExit release', () => {
    const { task, effects } = run(
      newTask(spec()),
      ready(),
      sent(1, 'c1'),
      progress('c1'),
      ended('c1', 'Success'),
    );
    expect(task).toMatchObject({ status: 'SUCCEEDED', exitCode: 0, startedAtMs: 1_200, endedAtMs: 5_000 });
    expect(task.attempts).toEqual([
      {
        attempt: 1,
        instanceId: 'i-1',
        commandId: 'c1',
        status: 'SUCCEEDED',
        startedAtMs: 1_200,
        endedAtMs: 5_000,
        exitCode: 0,
      },
    ]);
    expect(effects).toContainEqual({ kind: 'release', atMs: 5_000 });
    expect(taskReleaseInstant(task)).toBe(5_000);
  });

  it('keeps the lease with onExit keep', () => {
    const { task, effects } = run(
      newTask(spec({ onExit: 'keep' })),
      ready(),
      sent(1, 'c1'),
      ended('c1', 'Success'),
    );
    expect(task.status).toBe('SUCCEEDED');
    expect(effects.filter((e) => e.kind === 'release')).toEqual([]);
    expect(taskReleaseInstant(task)).toBeUndefined();
  });

  it('fails on a non-zero exit without retrying unless retryOnFailure', () => {
    const plain = run(newTask(spec()), ready(), sent(1, 'c1'), ended('c1', 'Failed', 3));
    expect(plain.task).toMatchObject({ status: 'FAILED', exitCode: 3, attempt: 1 });
    expect(plain.task.failureReason).toContain('exited with code 3');
    expect(plain.effects.filter((e) => e.kind === 'send')).toHaveLength(1);

    const retried = run(
      newTask(spec({ retryOnFailure: true, maxAttempts: 2 })),
      ready(),
      sent(1, 'c1'),
      ended('c1', 'Failed', 3),
    );
    expect(retried.task).toMatchObject({ status: 'STARTING', attempt: 2 });
    expect(retried.effects).toContainEqual({ kind: 'send', attempt: 2, instanceId: 'i-1' });
    const last = run(retried.task, sent(2, 'c2'), ended('c2', 'Failed', 4));
    expect(last.task).toMatchObject({ status: 'FAILED', exitCode: 4, attempt: 2 });
  });

  it('fails a task over its maxRuntimeMinutes (timeout exits 124) without retrying it', () => {
    const { task } = run(
      newTask(spec({ maxRuntimeMinutes: 5, retryOnFailure: true })),
      ready(),
      sent(1, 'c1'),
      ended('c1', 'Failed', 124),
    );
    expect(task.status).toBe('FAILED');
    expect(task.failureReason).toContain('maxRuntimeMinutes (5)');
  });

  it('on a spot interruption waits for the replacement and runs attempt 2 there; maxAttempts bounds it', () => {
    const lost = run(newTask(spec({ maxAttempts: 2 })), ready('i-1'), sent(1, 'c1'), progress('c1'), {
      type: 'instance-lost',
      instanceId: 'i-1',
      atMs: 3_000,
    });
    expect(lost.task).toMatchObject({ status: 'WAITING', attempt: 1 });
    expect(lost.task.attempts[0]?.status).toBe('INTERRUPTED');
    expect(lost.effects).toContainEqual({ kind: 'cancel', commandId: 'c1', instanceId: 'i-1' });
    // The old attempt's own end (killed with its instance) changes nothing.
    const late = run(lost.task, ended('c1', 'Cancelled'));
    expect(late.task.status).toBe('WAITING');
    const second = run(late.task, ready('i-2'), sent(2, 'c2'), {
      type: 'instance-lost',
      instanceId: 'i-2',
      atMs: 4_000,
    });
    expect(second.task).toMatchObject({ status: 'FAILED', attempt: 2 });
    expect(second.task.failureReason).toContain('last of 2 attempts');
    expect(applyTaskEvent(second.task, ready('i-3')).changed).toBe(false);
  });

  it('ignores the loss of an instance the current attempt does not run on', () => {
    const { task } = run(newTask(spec()), ready('i-1'), sent(1, 'c1'));
    expect(applyTaskEvent(task, { type: 'instance-lost', instanceId: 'i-9', atMs: 2_000 }).changed).toBe(
      false,
    );
  });

  it('stops a running task (cancelling its command) and does not release the lease again', () => {
    const { task, effects } = run(newTask(spec()), ready(), sent(1, 'c1'), progress('c1'), {
      type: 'stop',
      atMs: 2_000,
    });
    expect(task).toMatchObject({ status: 'STOPPED', endedAtMs: 2_000 });
    expect(effects).toContainEqual({ kind: 'cancel', commandId: 'c1', instanceId: 'i-1' });
    expect(effects.filter((e) => e.kind === 'release')).toEqual([]);
    expect(taskReleaseInstant(task)).toBeUndefined();
    expect(applyTaskEvent(task, ended('c1', 'Success')).task.status).toBe('STOPPED');
  });

  it('stops a waiting task with nothing to cancel', () => {
    const step = applyTaskEvent(newTask(spec()), { type: 'stop', atMs: 1 });
    expect(step.task.status).toBe('STOPPED');
    expect(step.effects).toEqual([]);
  });

  it('undoes the claim of an attempt whose send failed, so a retry sends it', () => {
    const { task } = run(newTask(spec()), ready(), { type: 'send-failed', attempt: 1 });
    expect(task).toMatchObject({ status: 'WAITING', attempt: 0, attempts: [] });
    expect(applyTaskEvent(task, ready()).effects).toEqual([{ kind: 'send', attempt: 1, instanceId: 'i-1' }]);
  });

  it('counts every change in the revision, and none for an event that changes nothing', () => {
    const { task } = run(newTask(spec()), ready(), sent(1, 'c1'), sent(1, 'c1'));
    expect(task.revision).toBe(2);
  });

  it('records the start of an instant task whose InProgress came after its Success, and only once', () => {
    const { task } = run(newTask(spec()), ready(), sent(1, 'c1'), ended('c1', 'Success'), progress('c1'));
    expect(task).toMatchObject({ status: 'SUCCEEDED', startedAtMs: 1_200, endedAtMs: 5_000 });
    expect(task.attempts[0]).toMatchObject({ status: 'SUCCEEDED', startedAtMs: 1_200 });
    expect(applyTaskEvent(task, progress('c1')).changed).toBe(false);
    expect(applyTaskEvent(task, progress('other')).changed).toBe(false);
  });

  it("says an event of the instance may be the attempt's until the attempt's command id is recorded", () => {
    const sending = run(newTask(spec()), ready('i-1')).task;
    expect(awaitsCommandId(sending, 'i-1', 'c1')).toBe(true);
    expect(awaitsCommandId(sending, 'i-2', 'c1')).toBe(false);
    const recorded = run(sending, sent(1, 'c1')).task;
    expect(awaitsCommandId(recorded, 'i-1', 'c1')).toBe(false);
    expect(awaitsCommandId(recorded, 'i-1', 'c2')).toBe(false);
  });

  it('fails the task, without a release, when its lease fails before the task could run', () => {
    const waiting = run(newTask(spec()), ready(), sent(1, 'c1'), {
      type: 'instance-lost',
      instanceId: 'i-1',
      atMs: 2_000,
    });
    expect(waiting.task.status).toBe('WAITING');
    const step = applyTaskEvent(waiting.task, { type: 'lease-failed', atMs: 3_000 });
    expect(step.task).toMatchObject({ status: 'FAILED', endedAtMs: 3_000 });
    expect(step.task.failureReason).toContain('the lease failed');
    expect(step.effects).toEqual([]);
    expect(applyTaskEvent(step.task, { type: 'lease-failed', atMs: 4_000 }).changed).toBe(false);
  });
});
