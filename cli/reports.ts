import { formatUsdForPeople as usd } from '../shared/domain/money';
import { type CliIo, callApi, client, type OutputOptions, print, writeOutput } from './common';
import { usageError } from './errors';
import { details, table } from './table';

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

type TaskTime = {
  runSeconds: number;
  waitSeconds: { tasks: number; p50: number | null; p95: number | null };
};

type QueueWait = { leases: number; timedOut: number; p50: number | null; p95: number | null };
type AccountQuotaWait = {
  gpuHours: number;
  peakGpus: number;
  timedOut: { leases: number; gpuHours: number };
};
type QueueFigures = {
  waitSeconds: QueueWait;
  overQuota: { leaseSeconds: number; wallSeconds: number };
  accountQuota: AccountQuotaWait & {
    byPool: ({ region: string | null; family: string | null } & AccountQuotaWait)[];
  };
};

type Audit = {
  month: string;
  complete: boolean;
  generatedAt: string;
  costMicroUsd: number;
  seconds: number;
  byMode: { mode: string; seconds: number; costMicroUsd: number; share: number }[];
  spotSavings: { spotSeconds: number; savingMicroUsd: number };
  reserved: { source: string; gpus: number; idleGpuHours: number; idleMicroUsd: number };
  interruptions: { source: string; count: number };
  tasks: { month: TaskTime };
  queue: { month: QueueFigures };
  recommendation: {
    reservedGpus: number;
    reservedReason: string;
    spotCandidates: { workload: string; leases: number; gpuHours: number }[];
    estimatedSavingOfPaidMicroUsd: number;
  } | null;
};

/** To a hundredth; a use too small to show as 0.01 is "<0.01", not a 0 that reads as nothing ran. */
export const hundredths = (n: number): number | string => {
  const rounded = Math.round(n * 100) / 100;
  return rounded === 0 && n > 0 ? '<0.01' : rounded;
};

function taskTimeCell({ runSeconds, waitSeconds }: TaskTime): string {
  const hours = hundredths(runSeconds / 3600);
  if (waitSeconds.tasks === 0) return `${hours} task-hours`;
  return `${hours} task-hours; ${waitSeconds.tasks} started, wait to start p50 ${waitSeconds.p50} s, p95 ${waitSeconds.p95} s`;
}

function queueCell({ waitSeconds, overQuota, accountQuota }: QueueFigures): string {
  const wait =
    waitSeconds.leases === 0
      ? 'no lease admitted'
      : `${waitSeconds.leases} leases, wait p50 ${waitSeconds.p50} s, p95 ${waitSeconds.p95} s (${waitSeconds.timedOut} timed out)`;
  const pools = accountQuota.byPool
    .map((p) => `${p.region ?? '?'} ${p.family ?? '?'} ${p.gpuHours} GPU-h, peak ${p.peakGpus}`)
    .join('; ');
  return (
    `${wait}; over quota ${overQuota.wallSeconds} s (${overQuota.leaseSeconds} lease-s); ` +
    `account quota ${accountQuota.gpuHours} GPU-hours, peak ${accountQuota.peakGpus} GPUs` +
    (pools ? ` (${pools})` : '')
  );
}

function auditDetails(audit: Audit): string {
  const advice = audit.recommendation;
  const summary = details([
    ['month', `${audit.month}${audit.complete ? '' : ' (to date)'}`],
    ['generated', audit.generatedAt],
    ['cost', `${usd(audit.costMicroUsd)} over ${audit.seconds} instance-seconds`],
    [
      'spot savings',
      `${usd(audit.spotSavings.savingMicroUsd)} on ${audit.spotSavings.spotSeconds} spot seconds`,
    ],
    [
      'reserved',
      `${audit.reserved.gpus} GPUs, ${audit.reserved.idleGpuHours} idle GPU-hours (${usd(audit.reserved.idleMicroUsd)}; ${audit.reserved.source})`,
    ],
    ['interruptions', `${audit.interruptions.count} (${audit.interruptions.source})`],
    ['tasks', taskTimeCell(audit.tasks.month)],
    ['queue', queueCell(audit.queue.month)],
    ['reserve next', advice && `${advice.reservedGpus} GPUs: ${advice.reservedReason}`],
    [
      'move to spot',
      advice &&
        (advice.spotCandidates.map((c) => `${c.workload} (${c.leases} leases)`).join(', ') || 'nothing'),
    ],
    ['saving', advice && `about ${usd(advice.estimatedSavingOfPaidMicroUsd)} of what was paid`],
  ]);
  return `${summary}\n${table(
    ['MODE', 'SECONDS', 'COST USD', 'SHARE %'],
    audit.byMode.map((m) => [m.mode, m.seconds, usd(m.costMicroUsd), (m.share * 100).toFixed(1)]),
  )}`;
}

export interface AuditOptions extends OutputOptions {
  readonly html?: string;
}

export async function auditReport(month: string, options: AuditOptions, io: CliIo) {
  if (!MONTH.test(month)) throw usageError(`"${month}" is not a month: give yyyy-mm, such as 2026-11`);
  const api = await client();
  if (options.html) {
    const page = (await api.request<string>('GET', `v1/audit/${month}/report.html`)).body;
    const file = await writeOutput(io, options.html, page);
    const bytes = Buffer.byteLength(page);
    print(
      io,
      options,
      { month, file, bytes },
      () => `Wrote the ${month} audit report to ${file} (${bytes} bytes)\n`,
    );
    return;
  }
  const audit = (await api.request<Audit>('GET', `v1/audit/${month}`)).body;
  print(io, options, audit, () => auditDetails(audit));
}

type GpuUse = { gpuHours: number; avgConcurrentGpus: number; peakConcurrentGpus: number };
type Utilization = { percent: number | null; telemetry: 'complete' | 'partial' | 'none' };
type Profile = {
  from: string;
  to: string;
  gpuUtilization: Utilization;
  days: (GpuUse & {
    day: string;
    waitSeconds: { leases: number; p50: number | null; p95: number | null };
    tasks: TaskTime;
    queue: QueueFigures;
    gpuUtilization: Utilization;
    idleGpuHours: number;
    idleShare: number | null;
  })[];
};

/** `62.5%`, `62.5% (partial)` when some GPUs sent no telemetry, `-` when none did. */
function utilizationCell(u: Utilization): string {
  if (u.percent === null) return '-';
  return u.telemetry === 'partial' ? `${u.percent}% (partial)` : `${u.percent}%`;
}

export interface ProfileOptions extends OutputOptions {
  readonly from?: string;
  readonly to?: string;
}

export async function profile(options: ProfileOptions, io: CliIo) {
  const result = await callApi<Profile>('GET', 'v1/profile', {
    query: { from: options.from, to: options.to },
  });
  print(
    io,
    options,
    result,
    () =>
      `${result.from} → ${result.to}\n${table(
        [
          'DAY',
          'GPU-HOURS',
          'AVG GPUS',
          'PEAK GPUS',
          'GPU UTIL',
          'IDLE GPU-H',
          'IDLE %',
          'LEASES',
          'WAIT P50 S',
          'WAIT P95 S',
          'TASK-H',
          'TASK WAIT P50 S',
          'TASK WAIT P95 S',
          'QUEUE P50 S',
          'QUEUE P95 S',
          'OVER QUOTA S',
          'ACCT QUOTA GPU-H',
        ],
        result.days.map((d) => [
          d.day,
          hundredths(d.gpuHours),
          hundredths(d.avgConcurrentGpus),
          d.peakConcurrentGpus,
          utilizationCell(d.gpuUtilization),
          hundredths(d.idleGpuHours),
          d.idleShare === null ? '-' : `${hundredths(d.idleShare * 100)}%`,
          d.waitSeconds.leases,
          d.waitSeconds.p50,
          d.waitSeconds.p95,
          hundredths(d.tasks.runSeconds / 3600),
          d.tasks.waitSeconds.p50,
          d.tasks.waitSeconds.p95,
          d.queue.waitSeconds.p50,
          d.queue.waitSeconds.p95,
          hundredths(d.queue.overQuota.wallSeconds),
          d.queue.accountQuota.gpuHours,
        ]),
      )}`,
  );
}
