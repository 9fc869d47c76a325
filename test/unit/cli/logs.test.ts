import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CliIo } from '../../../cli/common';
import { type LogsPage, printLogs } from '../../../cli/logs';

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
  const api = { request: async () => ({ status: 200, body: pages.shift() ?? page([]) }) };
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
    expect((await printLogs(api, 'lease_1', { follow: true }, io)).complete).toBe(true);
    expect(out).toEqual(['a\n', 'b\n']);
  });

  it("stops at run's --timeout while the task goes on, with what it printed so far", async () => {
    const { api, io, out } = following([page(['a'])]);
    const last = await printLogs(api, 'lease_1', { follow: true, untilMs: 3_000 }, io);
    expect(last.complete).toBe(false);
    expect(out).toEqual(['a\n']);
    expect(Date.now()).toBe(3_000);
  });
});
