import type { ApiClient } from './api';
import { type CliIo, client, givenFields, integerOption, type OutputOptions } from './common';
import { deadlineFields } from './deadline-options';
import { CliError, EXIT, usageError } from './errors';
import { type LeaseFlags, type LeaseQueue, leaseRequestBody, waitUntilRunning } from './leases';
import { printLogs } from './logs';
import { expandSweep, paramEnv, parseParams, runLabel, type SweepParam, substitute } from './sweep';
import { readTaskFile, type TaskFile } from './task-file';

export interface RunOptions extends LeaseFlags, OutputOptions {
  readonly timeout: string;
  readonly param: readonly string[];
  readonly onExit?: 'release' | 'keep';
  readonly maxAttempts?: string;
  readonly retryOnFailure?: boolean;
  readonly maxRuntime?: string;
  readonly taskImage?: string;
  readonly workdir?: string;
  /** The task's deadline (`2026-12-03T09:00Z`), the work it needs (`48h`) and a restart's cost (`10m`). */
  readonly deadline?: string;
  readonly work?: string;
  readonly restart?: string;
}

interface TaskLease {
  readonly leaseId: string;
  readonly status: string;
  readonly queue?: LeaseQueue;
  readonly costUsd: number;
  readonly failureReason?: string;
  readonly task?: { readonly status: string; readonly exitCode?: number; readonly failureReason?: string };
}

/** One run's outcome, a line of the summary. */
export interface RunResult {
  readonly leaseId: string;
  readonly params: Record<string, string>;
  readonly status: string;
  readonly exitCode?: number | undefined;
  readonly costUsd: number;
  /** Why a run that did not succeed ended (a task that exited non-zero says it with its exit code). */
  readonly failureReason?: string | undefined;
}

const ENDED = new Set(['SUCCEEDED', 'FAILED', 'STOPPED']);
const POLL_MS = 1000;

/**
 * The lease bodies of a run: one per point of the sweep's cross product, each
 * with `{name}` substituted in the command and NAME=value in the task's env,
 * all sharing the run's project label (a sweep gets one when none is given).
 */
export function runBodies(
  base: Record<string, unknown> & { readonly task: Record<string, unknown> },
  params: readonly SweepParam[],
  sweepProject: () => string,
): { body: Record<string, unknown>; params: Record<string, string> }[] {
  const points = expandSweep(params);
  const project = params.length > 0 ? (base.project ?? sweepProject()) : base.project;
  return points.map((values) => {
    const command = base.task.command;
    const task = {
      ...base.task,
      command: Array.isArray(command)
        ? substitute(command.map(String), values)
        : substitute([String(command)], values)[0],
      env: { ...(base.task.env as Record<string, string> | undefined), ...paramEnv(values) },
    };
    if (Object.keys(values).length === 0 && base.task.env === undefined)
      delete (task as { env?: unknown }).env;
    return { body: { ...base, ...(project === undefined ? {} : { project }), task }, params: values };
  });
}

/** What `run` asks for when neither a flag nor the task file names the workload. */
const DEFAULT_RUN_WORKLOAD = 'batch';

/** The task's fields from its flags. */
function taskFlags(options: RunOptions, file?: Record<string, unknown>) {
  return givenFields({
    image: options.taskImage,
    workdir: options.workdir,
    maxRuntimeMinutes: integerOption('--max-runtime', options.maxRuntime),
    onExit: options.onExit,
    maxAttempts: integerOption('--max-attempts', options.maxAttempts),
    retryOnFailure: options.retryOnFailure,
    ...deadlineFields(options, file),
  });
}

/** The lease fields and task of `gpurent run [options] -- <command…>`. */
export function commandLineBase(options: RunOptions, command: readonly string[]) {
  if (command.length === 0) throw usageError('gpurent run needs a task file or -- <command> [args…]');
  if (options.gpus === undefined) throw usageError("required option '--gpus <n>' not specified");
  return {
    workload: DEFAULT_RUN_WORKLOAD,
    ...givenFields(leaseRequestBody(options)),
    task: { command: [...command], ...taskFlags(options) },
  };
}

/**
 * The lease fields and task of `gpurent run task.yaml [options]`: the file's,
 * with each flag given over the file's field (`--gpus 4` runs the same task
 * on 4 GPUs), as `sky launch task.yaml --gpus …` does.
 */
export function taskFileBase(file: TaskFile['lease'], options: RunOptions) {
  return {
    workload: DEFAULT_RUN_WORKLOAD,
    ...file,
    ...givenFields(leaseRequestBody(options)),
    task: { ...file.task, ...taskFlags(options, file.task) },
  };
}

/** The lease once its task ended (or it failed), else as it stands at `deadlineMs` (`--timeout`). */
async function waitForTaskEnd(
  api: ApiClient,
  leaseId: string,
  deadlineMs: number,
  io: CliIo,
): Promise<TaskLease> {
  for (;;) {
    const lease = (await api.request<TaskLease>('GET', `v1/leases/${leaseId}`)).body;
    if (lease.status === 'FAILED' || (lease.task && ENDED.has(lease.task.status))) return lease;
    if (Date.now() > deadlineMs) return lease;
    await io.sleep(POLL_MS);
  }
}

/**
 * Runs still going at `--timeout`: the error that says so, after their lines
 * (or the JSON) are printed, so a script sees where each run stands.
 */
export function unfinishedRunsError(results: readonly RunResult[]): CliError | undefined {
  const unfinished = results.filter((result) => !ENDED.has(result.status));
  const [first] = unfinished;
  if (!first) return undefined;
  return new CliError(
    results.length === 1
      ? `lease ${first.leaseId}: the task has not ended in time (it keeps going; gpurent logs -f ${first.leaseId})`
      : `${unfinished.length} of ${results.length} runs had not ended in time (they keep going; gpurent lease ls)`,
  );
}

const resultOf = (lease: TaskLease, params: Record<string, string>): RunResult => ({
  leaseId: lease.leaseId,
  params,
  // A lease that FAILED ends its run even while its task's own end is still on the way.
  status:
    lease.status === 'FAILED' && !ENDED.has(lease.task?.status ?? '')
      ? 'FAILED'
      : (lease.task?.status ?? lease.status),
  exitCode: lease.task?.exitCode,
  costUsd: lease.costUsd,
  failureReason: lease.task?.failureReason ?? lease.failureReason,
});

export const resultLine = (result: RunResult) =>
  [
    result.leaseId,
    result.status,
    `exit ${result.exitCode ?? '-'}`,
    `$${result.costUsd.toFixed(6)}`,
    runLabel(result.params),
    result.status === 'SUCCEEDED' ? undefined : result.failureReason,
  ]
    .filter(Boolean)
    .join('  ');

/** What Ctrl-C on `run` says: the tasks go on, and how to follow or end them. */
export function interruptedRunNotice(leaseIds: readonly string[]): string {
  if (leaseIds.length === 1) {
    const [id] = leaseIds;
    return `\nstopped following; the task keeps running on lease ${id}: gpurent logs -f ${id} follows it again, gpurent lease rm ${id} ends it\n`;
  }
  return `\nstopped following; the ${leaseIds.length} tasks keep running on leases ${leaseIds.join(', ')}: gpurent lease rm <lease> ends one\n`;
}

/**
 * `gpurent run task.yaml` or `gpurent run [options] -- <command…>`: creates the
 * lease(s) with the task, waits, follows the output of a single run, prints one
 * line per run and exits with the task's exit code (a sweep: 0 when every run
 * succeeded, else 1).
 */
export async function run(args: readonly string[], options: RunOptions, io: CliIo): Promise<void> {
  const [first, ...rest] = args;
  const fromFile = first !== undefined && /\.ya?ml$/i.test(first) && rest.length === 0;
  const file = fromFile ? await readTaskFile(first, io.cwd) : undefined;
  const base = file ? taskFileBase(file.lease, options) : commandLineBase(options, args);
  const params = parseParams([
    ...(file?.params ?? []).map((param) => `${param.name}=${param.values.join(',')}`),
    ...options.param,
  ]);
  const timeoutSeconds = integerOption('--timeout', options.timeout) ?? 3600;
  const deadlineMs = Date.now() + timeoutSeconds * 1000;
  const api = await client();
  const runs = runBodies(base, params, () => `sweep-${Date.now().toString(36)}`);
  const created = await Promise.all(
    runs.map(async (point) => ({
      leaseId: (
        await api.request<{ leaseId: string }>('POST', 'v1/leases', { body: point.body, idempotent: true })
      ).body.leaseId,
      params: point.params,
    })),
  );
  io.onInterrupt?.(interruptedRunNotice(created.map((point) => point.leaseId)));
  const single = created.length === 1 ? created[0] : undefined;
  if (single && !options.json) {
    // Short of GPUs it waits in the queue first: its place and estimated start, not a silent wait.
    const first = (await api.request<TaskLease>('GET', `v1/leases/${single.leaseId}`)).body;
    const lease = await waitUntilRunning(
      api,
      first,
      Math.max(0, Math.floor((deadlineMs - Date.now()) / 1000)),
      io,
    );
    if (lease.status !== 'FAILED') {
      io.progress(`${single.leaseId}: waiting for the task's output\n`);
      await printLogs(api, single.leaseId, { follow: true, untilMs: deadlineMs }, io);
    }
  }
  const results = await Promise.all(
    created.map(async (point) =>
      resultOf(await waitForTaskEnd(api, point.leaseId, deadlineMs, io), point.params),
    ),
  );
  if (options.json) io.out(`${JSON.stringify(results, null, 2)}\n`);
  else io.out(results.map((result) => `${resultLine(result)}\n`).join(''));
  const unfinished = unfinishedRunsError(results);
  if (unfinished) throw unfinished;
  const exitCode = single
    ? (results[0]?.exitCode ?? (results[0]?.status === 'SUCCEEDED' ? EXIT.ok : EXIT.failed))
    : results.every((result) => result.status === 'SUCCEEDED')
      ? EXIT.ok
      : EXIT.failed;
  if (exitCode !== EXIT.ok)
    throw new CliError(
      `${results.filter((r) => r.status !== 'SUCCEEDED').length} run(s) did not succeed`,
      exitCode,
    );
}
