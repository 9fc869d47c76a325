import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiClient } from '../../../cli/api';
import type { CliIo } from '../../../cli/common';
import { type LogsPage, noOutputLine, printLogs } from '../../../cli/logs';

afterEach(() => {
  vi.useRealTimers();
});

const page = (messages: string[], complete = false): LogsPage => ({
  events: messages.map((message) => ({ at: '2026-12-07T00:00:00Z', stream: 'stdout', message })),
  nextToken: 'next',
  complete,
  taskStatus: complete ? 'SUCCEEDED' : 'RUNNING',
});

function following(pages: LogsPage[]) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(0);
  const out: string[] = [];
  const api = { request: async () => ({ status: 200, body: pages.shift() ?? page([]) }) } as Pick<
    ApiClient,
    'request'
  >;
  const io: CliIo = {
    out: (text) => out.push(text),
    progress: () => {},
    cwd: '/',
    sleep: async (ms) => void vi.setSystemTime(Date.now() + ms),
  };
  return { api, io, out };
}

describe('gpurent logs -f and run: following the output', () => {
  it('follows until the attempt is complete', async () => {
    const { api, io, out } = following([page(['a']), page([]), page(['b'], true)]);
    expect(await printLogs(api, 'lease_1', { follow: true }, io)).toMatchObject({
      last: { complete: true },
      printed: 2,
    });
    expect(out).toEqual(['a\n', 'b\n']);
  });

  it("stops at run's --timeout while the task goes on, with what it printed so far", async () => {
    const { api, io, out } = following([page(['a'])]);
    const { last } = await printLogs(api, 'lease_1', { follow: true, untilMs: 3_000 }, io);
    expect(last.complete).toBe(false);
    expect(out).toEqual(['a\n']);
    expect(Date.now()).toBe(3_000);
  });
});

describe('gpurent logs with nothing to print', () => {
  it('says why on stderr: not started, not printed yet, or ended without printing', () => {
    expect(noOutputLine('lease_1', { complete: false, taskStatus: 'WAITING' })).toBe(
      'lease_1: no output yet: the task is WAITING; gpurent lease show lease_1 says where the lease stands',
    );
    expect(noOutputLine('lease_1', { complete: false, taskStatus: 'RUNNING' })).toBe(
      'lease_1: no output yet: the task is RUNNING; gpurent logs -f lease_1 follows it',
    );
    expect(noOutputLine('lease_1', { complete: true, taskStatus: 'SUCCEEDED' })).toBe(
      'lease_1: no output: the attempt ended (SUCCEEDED) without printing any',
    );
  });
});
