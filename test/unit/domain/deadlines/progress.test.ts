import { describe, expect, it } from 'vitest';
import {
  DeadlineRequestError,
  deadlineRequestProblem,
} from '../../../../shared/domain/deadlines/lease-request';
import { jobProgress } from '../../../../shared/domain/deadlines/progress';
import { deadlineStatus } from '../../../../shared/domain/deadlines/status';

const MIN = 60_000;
const HOUR = 60 * MIN;

describe("a task's progress", () => {
  it("takes the progress file's figure as written and counts the time run since as unsaved", () => {
    const runs = [{ startedAtMs: 0, restartMs: 5 * MIN }];
    const reports = [{ atMs: 2 * HOUR, doneMs: 100 * MIN }];
    expect(jobProgress(runs, reports, 10 * HOUR, 3 * HOUR)).toEqual({ savedMs: 100 * MIN, unsavedMs: HOUR });
  });

  it('without a progress figure, counts the work its runs had done by the last checkpoint, restarts excluded', () => {
    const runs = [
      { startedAtMs: 0, restartMs: 5 * MIN, endedAtMs: HOUR + 5 * MIN },
      { startedAtMs: 2 * HOUR, restartMs: 5 * MIN },
    ];
    const reports = [{ atMs: HOUR + 5 * MIN }, { atMs: 3 * HOUR + 5 * MIN }];
    // One hour in the first run, one in the second by its checkpoint, 30 minutes since.
    expect(jobProgress(runs, reports, 10 * HOUR, 3 * HOUR + 35 * MIN)).toEqual({
      savedMs: 2 * HOUR,
      unsavedMs: 30 * MIN,
    });
  });

  it('never counts more than the work, nor progress before any checkpoint as saved', () => {
    const runs = [{ startedAtMs: 0, restartMs: 0 }];
    expect(jobProgress(runs, [], HOUR, 30 * MIN)).toEqual({ savedMs: 0, unsavedMs: 30 * MIN });
    expect(jobProgress(runs, [{ atMs: 2 * HOUR, doneMs: 3 * HOUR }], HOUR, 3 * HOUR)).toEqual({
      savedMs: HOUR,
      unsavedMs: 0,
    });
  });

  it('shows progress, slack and the decision in words on the lease', () => {
    const job = {
      submittedAtMs: 0,
      deadlineMs: Date.parse('2026-12-03T09:00:00Z'),
      workMs: 48 * HOUR,
      restartMs: 5 * MIN,
      checkpointGb: 0,
      onDemandCostMicroUsd: 0,
    };
    const progress = { savedMs: 12 * HOUR, unsavedMs: 20 * MIN };
    expect(deadlineStatus(job, progress, undefined)).toEqual({
      deadline: '2026-12-03T09:00:00.000Z',
      workMinutes: 2880,
      restartMinutes: 5,
      progress: { savedMinutes: 720, unsavedMinutes: 20, percent: 25 },
    });
    const decision = { action: { kind: 'wait' as const }, reason: 'no open spot pool', slackMs: 90.5 * MIN };
    expect(deadlineStatus(job, progress, decision)).toMatchObject({
      slackMinutes: 90,
      decision: 'no open spot pool',
    });
  });
});

describe("an ended job's deadline status", () => {
  const job = { deadlineMs: 10 * HOUR, workMs: 4 * HOUR, restartMs: 5 * MIN };
  const decision = { action: { kind: 'wait' as const }, reason: 'no open spot pool', slackMs: 90 * MIN };

  it('a task that succeeded did all its work, though it never wrote a progress file, and no decision is pending', () => {
    const status = deadlineStatus(job, { savedMs: 0, unsavedMs: 0 }, decision, {
      succeeded: true,
      endedAtMs: 10 * HOUR - 111 * MIN,
    });
    expect(status.progress).toEqual({ savedMinutes: 240, unsavedMinutes: 0, percent: 100 });
    expect(status.slackMinutes).toBeUndefined();
    expect(status.decision).toBe('none: the task succeeded 1.9 h before the deadline');
  });

  it('a task that failed keeps the work its checkpoints saved, and says how late it ended', () => {
    const status = deadlineStatus(job, { savedMs: HOUR, unsavedMs: 0 }, decision, {
      succeeded: false,
      endedAtMs: 10.5 * HOUR,
    });
    expect(status.progress).toEqual({ savedMinutes: 60, unsavedMinutes: 0, percent: 25 });
    expect(status.decision).toBe('none: the task ended without success 0.5 h after the deadline');
  });
});

describe('a deadline with the rest of the request', () => {
  it('needs a task and a mode the policy may choose, else a 400 naming why', () => {
    expect(deadlineRequestProblem({ hasTask: true })).toBeNull();
    expect(deadlineRequestProblem({ hasTask: true, mode: 'spot' })).toBeNull();
    expect(deadlineRequestProblem({ hasTask: false, mode: 'spot' })).toBe('DEADLINE_WITHOUT_TASK');
    expect(deadlineRequestProblem({ hasTask: true, mode: 'on-demand' })).toBe('DEADLINE_WITH_ON_DEMAND');
    const error = new DeadlineRequestError('DEADLINE_WITH_ON_DEMAND');
    expect([error.status, error.code, error.field]).toEqual([400, 'DEADLINE_WITH_ON_DEMAND', 'deadline']);
  });
});
