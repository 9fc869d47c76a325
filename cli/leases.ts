import {
  MAX_PRIORITY,
  MAX_WAIT_MINUTES,
  MIN_PRIORITY,
  MIN_WAIT_MINUTES,
} from '../shared/domain/admission/quota';
import {
  MAX_GPUS_PER_LEASE,
  MAX_LEASE_MINUTES,
  MIN_LEASE_MINUTES,
  type RentalMode,
  type Workload,
} from '../shared/domain/lease';
import type { ApiClient } from './api';
import {
  type CliIo,
  client,
  integerOption,
  leaseIdArgument,
  numberOption,
  type OutputOptions,
  print,
  usdForPeople,
  usdPerHourForPeople,
} from './common';
import { CliError } from './errors';
import { details, table } from './table';

type Lease = {
  leaseId: string;
  status: string;
  workload: string;
  gpus: number;
  instanceType: string;
  mode?: string;
  project?: string;
  costUsd: number;
  createdAt?: string;
  expiresAt?: string;
  failureReason?: string;
  queue?: LeaseQueue;
  placement?: { region: string; zone: string; hourlyUsd: number; reason: string };
  task?: LeaseTask;
  instances: {
    instanceId: string;
    instanceType: string;
    mode: string;
    zone: string;
    launchedAt?: string;
    endedAt?: string;
    costUsd: number;
  }[];
};

/** What `lease show` tells of a lease's task, as GET /v1/leases/{id} answers. */
export interface LeaseTask {
  status: string;
  attempt: number;
  maxAttempts: number;
  exitCode?: number;
  deadline?: string;
  workMinutes?: number;
  restartMinutes?: number;
  progress?: { savedMinutes: number; unsavedMinutes: number; percent: number };
  slackMinutes?: number;
  decision?: string;
}

/** The task's lines of `lease show`: its state, and for a job with a deadline where it stands against it. */
export function taskDetails(task: LeaseTask | undefined): [string, unknown][] {
  if (!task) return [];
  const exit = task.exitCode === undefined ? '' : `, exit ${task.exitCode}`;
  const attempt =
    task.attempt === 0
      ? `not started, up to ${task.maxAttempts} attempts`
      : `attempt ${task.attempt} of ${task.maxAttempts}`;
  const lines: [string, unknown][] = [['task', `${task.status}, ${attempt}${exit}`]];
  if (task.deadline === undefined) return lines;
  const { progress } = task;
  return [
    ...lines,
    ['deadline', `${task.deadline} (${task.workMinutes} min of work, ${task.restartMinutes} min a restart)`],
    [
      'progress',
      progress &&
        `${progress.percent}%: ${progress.savedMinutes} min checkpointed, ${progress.unsavedMinutes} min since`,
    ],
    ['slack', task.slackMinutes === undefined ? undefined : `${task.slackMinutes} min`],
    ['decision', task.decision],
  ];
}

/** Where a QUEUED lease stands, as GET /v1/leases answers. */
export interface LeaseQueue {
  reason: string;
  position: number;
  estimatedStartAt?: string;
  estimateBasis: string;
  waitEndsAt?: string;
}

/**
 * A QUEUED lease's place for people:
 * `#2 (quota), starts ~2026-12-01T21:10Z (lease-expiry), waits until 2026-12-01T22:05:12Z`.
 */
export function queueForPeople(queue: LeaseQueue | undefined): string | undefined {
  if (!queue) return undefined;
  const start = queue.estimatedStartAt
    ? `starts ~${queue.estimatedStartAt.slice(0, 16)}Z`
    : 'no start estimate';
  const waitEnd = queue.waitEndsAt ? `, waits until ${queue.waitEndsAt.slice(0, 19)}Z` : '';
  return `#${queue.position} (${queue.reason}), ${start} (${queue.estimateBasis})${waitEnd}`;
}

export interface CreateLeaseOptions extends OutputOptions {
  readonly workload: Workload;
  readonly gpus: string;
  readonly instanceType?: string;
  readonly mode?: RentalMode;
  readonly project?: string;
  readonly duration?: string;
  readonly gpuModel?: string;
  readonly regions?: string;
  readonly dataRegion?: string;
  readonly dataGb?: string;
  readonly maxHourlyPrice?: string;
  readonly image?: string;
  readonly priority?: string;
  readonly maxWait?: string;
  readonly wait?: boolean;
  readonly timeout: string;
}

/** The lease fields of the flags; `run task.yaml` may leave the workload and the GPUs to its file. */
export type LeaseFlags = Omit<CreateLeaseOptions, 'wait' | 'timeout' | 'json' | 'workload' | 'gpus'> &
  Partial<Pick<CreateLeaseOptions, 'workload' | 'gpus'>>;

/** The POST /v1/leases body of the lease options (`lease create`, `run`). */
export function leaseRequestBody(options: LeaseFlags) {
  return {
    workload: options.workload,
    gpus: integerOption('--gpus', options.gpus, 1, MAX_GPUS_PER_LEASE),
    instanceType: options.instanceType,
    mode: options.mode,
    project: options.project,
    durationMinutes: integerOption('--duration', options.duration, MIN_LEASE_MINUTES, MAX_LEASE_MINUTES),
    gpuModel: options.gpuModel,
    regions: options.regions?.split(',').map((region) => region.trim()),
    dataRegion: options.dataRegion,
    dataGb: numberOption('--data-gb', options.dataGb),
    maxHourlyPrice: numberOption('--max-hourly-price', options.maxHourlyPrice),
    image: options.image,
    priority: integerOption('--priority', options.priority, MIN_PRIORITY, MAX_PRIORITY),
    maxWaitMinutes: integerOption('--max-wait', options.maxWait, MIN_WAIT_MINUTES, MAX_WAIT_MINUTES),
  };
}

export async function leaseCreate(options: CreateLeaseOptions, io: CliIo): Promise<void> {
  const body = leaseRequestBody(options);
  const timeoutSeconds = integerOption('--timeout', options.timeout) ?? 600;
  const api = await client();
  const created = await api.request<{ leaseId: string }>('POST', 'v1/leases', { body, idempotent: true });
  let lease = (await api.request<Lease>('GET', `v1/leases/${created.body.leaseId}`)).body;
  if (options.wait) lease = await waitUntilRunning(api, lease, timeoutSeconds, io);
  print(io, options, lease, () => leaseDetails(lease));
  if (lease.status === 'FAILED')
    throw new CliError(`lease ${lease.leaseId} FAILED: ${lease.failureReason ?? 'no reason given'}`);
}

const POLL_MS = 1000;

/**
 * Shows the lease's progress on stderr (its queue place while QUEUED) until it
 * is past PENDING: on a terminal one line rewritten each poll with the seconds
 * waited, elsewhere a line each time the status or place changes, so a log
 * of an hour in the queue is not one line of thousands of carriage returns.
 */
export async function waitUntilRunning<Shown extends Pick<Lease, 'leaseId' | 'status' | 'queue'>>(
  api: Pick<ApiClient, 'request'>,
  first: Shown,
  timeoutSeconds: number,
  io: CliIo,
): Promise<Shown> {
  let lease = first;
  let shown: string | undefined;
  const started = Date.now();
  const show = (line: string, waited: number) => {
    if (io.terminal) io.progress(`${CLEAR_LINE}${line} (${waited}s)`);
    else if (line !== shown) io.progress(`${line}\n`);
    shown = line;
  };
  // A QUEUED lease waits for admission, then goes PENDING: both wait for RUNNING.
  while (lease.status === 'PENDING' || lease.status === 'QUEUED') {
    const waited = Math.round((Date.now() - started) / 1000);
    const place = lease.status === 'QUEUED' ? ` ${queueForPeople(lease.queue)}` : '';
    show(`${lease.leaseId}: ${lease.status}${place}, waiting for RUNNING`, waited);
    if (waited >= timeoutSeconds) {
      if (io.terminal) io.progress('\n');
      throw new CliError(
        `lease ${lease.leaseId} is still ${lease.status} after ${timeoutSeconds}s (it keeps going; see gpurent lease show)`,
      );
    }
    await io.sleep(POLL_MS);
    lease = (await api.request<Shown>('GET', `v1/leases/${lease.leaseId}`)).body;
  }
  const after = `${lease.leaseId}: ${lease.status} after ${Math.round((Date.now() - started) / 1000)}s\n`;
  io.progress(io.terminal && shown !== undefined ? `${CLEAR_LINE}${after}` : after);
  return lease;
}

/** Back to the start of the line and erase it: a shorter line leaves nothing of the longer one before it. */
const CLEAR_LINE = '\r\x1b[K';

function leaseDetails(lease: Lease): string {
  const summary = details([
    ['lease', lease.leaseId],
    ['status', lease.status],
    ['workload', lease.workload],
    ['gpus', lease.gpus],
    ['instance type', lease.instanceType],
    ['mode', lease.mode],
    ['project', lease.project],
    ['created', lease.createdAt],
    ['expires', lease.expiresAt],
    ['queue', queueForPeople(lease.queue)],
    [
      'placed in',
      lease.placement && `${lease.placement.zone} at ${usdPerHourForPeople(lease.placement.hourlyUsd)}`,
    ],
    ['why', lease.placement?.reason],
    ...taskDetails(lease.task),
    ['cost', usdForPeople(lease.costUsd)],
    ['failure', lease.failureReason],
  ]);
  if (lease.instances.length === 0) return summary;
  return `${summary}\n${table(
    ['INSTANCE', 'TYPE', 'MODE', 'ZONE', 'LAUNCHED', 'ENDED', 'COST USD'],
    lease.instances.map((i) => [
      i.instanceId,
      i.instanceType,
      i.mode,
      i.zone,
      i.launchedAt,
      i.endedAt,
      usdForPeople(i.costUsd),
    ]),
  )}`;
}

export interface LeaseListOptions extends OutputOptions {
  readonly limit: string;
  readonly cursor?: string;
}

export async function leaseList(options: LeaseListOptions, io: CliIo) {
  const limit = integerOption('--limit', options.limit);
  const page = await (await client()).request<{ leases: Lease[]; nextCursor?: string }>('GET', 'v1/leases', {
    query: { limit: String(limit), cursor: options.cursor },
  });
  print(io, options, page.body, () => {
    const rows = page.body.leases.map((l) => [
      l.leaseId,
      l.status,
      l.workload,
      l.gpus,
      l.instanceType,
      l.mode,
      l.project,
      usdForPeople(l.costUsd),
      l.expiresAt,
      queueForPeople(l.queue),
    ]);
    // The next page's command keeps every option of this one.
    const more = page.body.nextCursor
      ? `more: gpurent lease ls --limit ${limit} --cursor ${page.body.nextCursor}\n`
      : '';
    return (
      table(
        ['LEASE', 'STATUS', 'WORKLOAD', 'GPUS', 'TYPE', 'MODE', 'PROJECT', 'COST USD', 'EXPIRES', 'QUEUE'],
        rows,
      ) + more
    );
  });
}

export async function leaseShow(id: string, options: OutputOptions, io: CliIo) {
  const leaseId = leaseIdArgument(id);
  const lease = (await (await client()).request<Lease>('GET', `v1/leases/${leaseId}`)).body;
  print(io, options, lease, () => leaseDetails(lease));
}

export async function leaseRelease(id: string, options: OutputOptions, io: CliIo) {
  const leaseId = leaseIdArgument(id);
  const lease = (await (await client()).request<Lease>('DELETE', `v1/leases/${leaseId}`)).body;
  print(io, options, lease, () => `${lease.leaseId} ${lease.status}\n`);
}
