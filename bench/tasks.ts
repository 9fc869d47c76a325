/**
 * Tasks on leases (issue #16) on the local stack: 50 leases with a trivial
 * task, timed from POST to the task's start and from the task's exit to the
 * lease RELEASED, against 50 bare leases (POST → RUNNING) in the same run.
 * Every figure is read from the lease's own instants (createdAt; updatedAt,
 * the instant of its last transition, when seen RUNNING or RELEASED; the
 * task's startedAt and endedAt), so the polls that wait for them add nothing
 * to what is measured, and are slow enough not to starve the stack they poll
 * (at one GET every 2 s a lease, the bench's own reads were about 60% of the
 * leases table's reads during the run).
 * The phases do not overlap: the task leases are created once every bare
 * lease is RELEASED, so each phase's leases contend only with one another
 * (in both, earlier leases of the phase release while later ones start).
 */
import { startLocalStack } from '../local/stack';
import type { BenchmarkResult } from './support/benchmark';
import { percentile, round } from './support/stats';

const LEASES = 50;
const POLL_MS = 5000;
/** Polls the local gateway refused or dropped under load, retried before giving up. */
const FETCH_RETRIES = 5;
const TIMEOUT_MS = 300_000;

interface View {
  readonly leaseId: string;
  readonly status: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly releaseRequestedAt?: string;
  readonly secondsToRunning?: number;
  readonly task?: { readonly status: string; readonly startedAt?: string; readonly endedAt?: string };
}

const ENDED = new Set(['SUCCEEDED', 'FAILED', 'STOPPED']);

async function call(
  apiUrl: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<View> {
  const request = () =>
    fetch(new URL(path, apiUrl), {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined
          ? {}
          : { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  let response: Response | undefined;
  for (let attempt = 0; response === undefined; attempt += 1) {
    try {
      response = await request();
    } catch (error) {
      // Only reads and releases are retried: a POST that may have landed is not sent twice.
      if (method === 'POST' || attempt >= FETCH_RETRIES) throw error;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as View;
}

/** Polls the lease until `done`, returning the view. */
async function until(get: () => Promise<View>, done: (view: View) => boolean) {
  const deadline = Date.now() + TIMEOUT_MS;
  for (;;) {
    const view = await get();
    if (done(view)) return { view };
    if (view.status === 'FAILED') throw new Error(`lease ${view.leaseId} FAILED`);
    if (Date.now() > deadline) throw new Error(`lease ${view.leaseId} stuck at ${view.status}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** p95 of the figures every lease has; undefined when some lease lacks it. */
function p95Of(values: readonly (number | undefined)[]): number | undefined {
  const known = values.filter((v): v is number => v !== undefined);
  return known.length === values.length ? round(percentile(known, 0.95)) : undefined;
}

const lease = { workload: 'batch', gpus: 1, instanceType: 'g5.xlarge', mode: 'on-demand' };

export async function run(): Promise<BenchmarkResult> {
  const stack = await startLocalStack({
    port: 0,
    prefix: `bench-tasks-${Date.now().toString(36)}`,
    timers: true,
  });
  try {
    const api = (method: string, path: string, body?: unknown) =>
      call(stack.apiUrl, stack.token, method, path, body);
    const bare = await Promise.all(
      Array.from({ length: LEASES }, async () => {
        const { leaseId } = await api('POST', 'v1/leases', lease);
        const running = await until(
          () => api('GET', `v1/leases/${leaseId}`),
          (v) => v.status === 'RUNNING',
        );
        await api('DELETE', `v1/leases/${leaseId}`);
        // The task leases must not start while these are still being released: each phase has the stack to itself.
        await until(
          () => api('GET', `v1/leases/${leaseId}`),
          (v) => v.status === 'RELEASED',
        );
        return (Date.parse(running.view.updatedAt) - Date.parse(running.view.createdAt)) / 1000;
      }),
    );
    const tasks = await Promise.all(
      Array.from({ length: LEASES }, async () => {
        const { leaseId } = await api('POST', 'v1/leases', {
          ...lease,
          task: { command: ['true'], onExit: 'release' },
        });
        const get = () => api('GET', `v1/leases/${leaseId}`);
        const { view } = await until(get, (v) => v.status === 'RELEASED');
        const { task } = view;
        if (!task?.startedAt || !task.endedAt || !ENDED.has(task.status)) {
          throw new Error(`lease ${leaseId} was released without a finished task: ${JSON.stringify(task)}`);
        }
        const startSeconds = (Date.parse(task.startedAt) - Date.parse(view.createdAt)) / 1000;
        const exitMs = Date.parse(task.endedAt);
        return {
          startSeconds,
          // Where the start went: the lease's own path to RUNNING, then the task's.
          runningSeconds: view.secondsToRunning,
          exitToReleasedSeconds: (Date.parse(view.updatedAt) - exitMs) / 1000,
          // The end's delivery to the handler that asks for the release, within the same delivery.
          exitToReleaseRequestedSeconds:
            view.releaseRequestedAt === undefined
              ? undefined
              : (Date.parse(view.releaseRequestedAt) - exitMs) / 1000,
        };
      }),
    );
    const start = tasks.map((t) => t.startSeconds);
    const figures = {
      leases: LEASES,
      p50StartSeconds: round(percentile(start, 0.5)),
      p95StartSeconds: round(percentile(start, 0.95)),
      p95ExitToReleasedSeconds: round(
        percentile(
          tasks.map((t) => t.exitToReleasedSeconds),
          0.95,
        ),
      ),
      baselineP95RunningSeconds: round(percentile(bare, 0.95)),
      taskLeasesP95RunningSeconds: p95Of(tasks.map((t) => t.runningSeconds)),
      p95ExitToReleaseRequestedSeconds: p95Of(tasks.map((t) => t.exitToReleaseRequestedSeconds)),
    };
    return {
      key: 'tasks',
      figures,
      summary: [
        `${LEASES} leases with a trivial task: POST → task start p50 ${figures.p50StartSeconds} s, p95 ${figures.p95StartSeconds} s`,
        `task exit → RELEASED p95 ${figures.p95ExitToReleasedSeconds} s (the lease's own instants)`,
        `bare leases, same run: POST → RUNNING p95 ${figures.baselineP95RunningSeconds} s`,
        `task leases: POST → RUNNING p95 ${figures.taskLeasesP95RunningSeconds ?? 'n/a'} s, exit → release asked p95 ${figures.p95ExitToReleaseRequestedSeconds ?? 'n/a'} s`,
      ].join('\n'),
    };
  } finally {
    await stack.stop();
  }
}
