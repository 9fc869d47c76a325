import { describe, expect, it, vi } from 'vitest';
import type { ApiClient } from '../../../cli/api';
import type { CliIo } from '../../../cli/common';
import { type LeaseQueue, queueForPeople, taskDetails, waitUntilRunning } from '../../../cli/leases';
import { createProgram } from '../../../cli/program';

describe('gpurent lease ls: a queued lease', () => {
  it('shows its position, why it waits, the estimated start to the minute and its basis', () => {
    expect(
      queueForPeople({
        reason: 'quota',
        position: 2,
        estimatedStartAt: '2026-12-01T21:10:42.000Z',
        estimateBasis: 'running-ends',
      }),
    ).toBe('#2 (quota), starts ~2026-12-01T21:10Z (running-ends)');
  });

  it('says when no start can be estimated, and shows nothing for a lease that is not queued', () => {
    expect(queueForPeople({ reason: 'capacity', position: 1, estimateBasis: 'times-out' })).toBe(
      '#1 (capacity), no start estimate (times-out)',
    );
    expect(queueForPeople(undefined)).toBeUndefined();
  });

  it('says until when it waits: past it the lease fails with QUEUE_TIMEOUT', () => {
    expect(
      queueForPeople({
        reason: 'quota',
        position: 1,
        estimateBasis: 'times-out',
        waitEndsAt: '2026-12-06T21:42:36.006Z',
      }),
    ).toBe('#1 (quota), no start estimate (times-out), waits until 2026-12-06T21:42:36Z');
  });
});

describe('gpurent lease show: a lease with a task', () => {
  it('shows a job with a deadline: its state, the deadline, progress, slack and the decision in words', () => {
    expect(
      taskDetails({
        status: 'RUNNING',
        attempt: 2,
        maxAttempts: 3,
        deadline: '2026-12-05T00:43:00.000Z',
        workMinutes: 120,
        restartMinutes: 10,
        progress: { savedMinutes: 60, unsavedMinutes: 4, percent: 50 },
        slackMinutes: 106,
        decision: 'spot in us-east-1a at $0.329/h: still has capacity: stays until interrupted',
      }),
    ).toEqual([
      ['task', 'RUNNING, attempt 2 of 3'],
      ['deadline', '2026-12-05T00:43:00.000Z (120 min of work, 10 min a restart)'],
      ['progress', '50%: 60 min checkpointed, 4 min since'],
      ['slack', '106 min'],
      ['decision', 'spot in us-east-1a at $0.329/h: still has capacity: stays until interrupted'],
    ]);
  });

  it('shows a task without a deadline by its state and exit code alone, and nothing for a bare lease', () => {
    expect(taskDetails({ status: 'FAILED', attempt: 1, maxAttempts: 1, exitCode: 3 })).toEqual([
      ['task', 'FAILED, attempt 1 of 1, exit 3'],
    ]);
    expect(taskDetails({ status: 'WAITING', attempt: 0, maxAttempts: 3 })).toEqual([
      ['task', 'WAITING, not started, up to 3 attempts'],
    ]);
    expect(taskDetails(undefined)).toEqual([]);
  });
});

describe('gpurent lease create --wait / run: waiting for RUNNING', () => {
  type Polled = { leaseId: string; status: string; queue?: LeaseQueue };
  const queued = (position: number): Polled => ({
    leaseId: 'lease_1',
    status: 'QUEUED',
    queue: { reason: 'quota', position, estimateBasis: 'times-out' },
  });
  const pending: Polled = { leaseId: 'lease_1', status: 'PENDING' };
  const polls = [
    queued(2),
    queued(1),
    queued(1),
    pending,
    pending,
    { leaseId: 'lease_1', status: 'RUNNING' },
  ];

  async function waitThrough(terminal: boolean) {
    vi.useFakeTimers({ toFake: ['Date'] });
    const written: string[] = [];
    const answers = polls.slice(1);
    const api = { request: async () => ({ status: 200, body: answers.shift() }) } as Pick<
      ApiClient,
      'request'
    >;
    const io: CliIo = {
      out: () => {},
      progress: (text) => written.push(text),
      terminal,
      cwd: '/',
      sleep: async (ms) => void vi.setSystemTime(Date.now() + ms),
    };
    const lease = await waitUntilRunning(api, polls[0] as Polled, 60, io);
    vi.useRealTimers();
    return { lease, written };
  }

  it('in a log, writes a line each time the status or place changes, and no carriage returns', async () => {
    const { lease, written } = await waitThrough(false);
    expect(lease.status).toBe('RUNNING');
    expect(written).toEqual([
      'lease_1: QUEUED #2 (quota), no start estimate (times-out), waiting for RUNNING\n',
      'lease_1: QUEUED #1 (quota), no start estimate (times-out), waiting for RUNNING\n',
      'lease_1: PENDING, waiting for RUNNING\n',
      'lease_1: RUNNING after 5s\n',
    ]);
  });

  it('on a terminal, rewrites one line each poll, erasing what a longer line left', async () => {
    const { written } = await waitThrough(true);
    expect(written).toHaveLength(polls.length);
    expect(written.every((text) => text.startsWith('\r\x1b[K'))).toBe(true);
    expect(written[2]).toBe(
      '\r\x1b[Klease_1: QUEUED #1 (quota), no start estimate (times-out), waiting for RUNNING (2s)',
    );
    expect(written.at(-1)).toBe('\r\x1b[Klease_1: RUNNING after 5s\n');
  });
});

describe('gpurent lease release', () => {
  it('is lease rm by the word the API and the docs use', () => {
    const io: CliIo = { out: () => {}, progress: () => {}, cwd: '/', sleep: async () => {} };
    const lease = createProgram(io).commands.find((command) => command.name() === 'lease');
    const rm = lease?.commands.find((command) => command.name() === 'rm');
    expect(rm?.aliases()).toEqual(['release']);
  });
});
