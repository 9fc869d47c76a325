import { gpuUse, percentileOf } from '../demand-profile';
import type { LeaseView, Workload } from '../lease';
import { perUtcDay } from '../utc-days';
import type { QueueReason } from './admission-pass';
import { type InstanceFamily, instanceFamily, UnsupportedInstanceFamilyError } from './capacity';
import { DEFAULT_MAX_WAIT_MINUTES } from './quota';

const MINUTE_MS = 60_000;

/** Part of a lease's wait for admission during which it waited for one reason. */
export interface QueueSpell {
  readonly reason: QueueReason;
  readonly fromMs: number;
  readonly toMs: number;
  /** The spell ended with the lease's time-out (it never ran). */
  readonly timedOut: boolean;
}

/**
 * A lease's wait for admission as the figures read it. `waitMs` is its wait
 * when known: 0 for a lease admission took at once, admitted-at minus
 * queued-at for one it queued, its maxWait for one that timed out; undefined
 * for one still waiting or released while it waited.
 */
export interface LeaseWait {
  readonly workload: Workload;
  readonly requestedAtMs: number;
  readonly gpus: number;
  readonly waitMs?: number | undefined;
  readonly timedOut: boolean;
  readonly spells: readonly QueueSpell[];
  /** Where admission counted it (null when no record says). */
  readonly region: string | null;
  readonly family: InstanceFamily | null;
}

function familyOf(instanceType: string): InstanceFamily | null {
  try {
    return instanceFamily(instanceType);
  } catch (error) {
    if (error instanceof UnsupportedInstanceFamilyError) return null;
    throw error;
  }
}

/** Where an open spell of a lease that is no longer waiting ends: its release, or its last change. */
const leftQueueAt = (lease: LeaseView, nowMs: number) =>
  lease.status === 'QUEUED' ? nowMs : (lease.releaseRequestedAtMs ?? lease.updatedAtMs);

/**
 * The wait of each lease admission has decided on, from its queue history:
 * a lease with no history was admitted at once (wait 0), except one still
 * PENDING or QUEUED, which admission has not decided on yet. The first spell
 * starts when the lease joined the queue; a spell ends at the next mark, a
 * timed-out one at queued-at plus maxWait. Marks are ordered by time (two
 * racing passes may append them out of order) and a repeated reason is one spell.
 */
export function waitsOf(leases: readonly LeaseView[], nowMs: number): LeaseWait[] {
  return leases.flatMap((lease): LeaseWait[] => {
    const marks = [...(lease.queueHistory ?? [])].sort((a, b) => a.atMs - b.atMs);
    const base = {
      workload: lease.workload,
      requestedAtMs: lease.createdAtMs,
      gpus: lease.gpus,
      region: lease.queueRegion ?? lease.regions?.[0] ?? null,
      family: familyOf(lease.instanceType),
    };
    const first = marks[0];
    if (!first) {
      return lease.status === 'PENDING' || lease.status === 'QUEUED'
        ? []
        : [{ ...base, waitMs: 0, timedOut: false, spells: [] }];
    }
    const queuedAtMs = Math.min(lease.queuedAtMs ?? first.atMs, first.atMs);
    const deadlineMs = queuedAtMs + (lease.maxWaitMinutes ?? DEFAULT_MAX_WAIT_MINUTES) * MINUTE_MS;
    const spells: QueueSpell[] = [];
    let open: { reason: QueueReason; fromMs: number } | undefined;
    const close = (toMs: number, timedOut: boolean) => {
      if (open && toMs > open.fromMs) spells.push({ ...open, toMs, timedOut });
      open = undefined;
    };
    marks.forEach((mark, i) => {
      if (mark.state === 'admitted') close(mark.atMs, false);
      else if (mark.state === 'timed-out') close(Math.min(mark.atMs, deadlineMs), true);
      else if (open?.reason !== mark.state) {
        close(mark.atMs, false);
        open = { reason: mark.state, fromMs: i === 0 ? queuedAtMs : mark.atMs };
      }
    });
    const waiting = open !== undefined;
    close(leftQueueAt(lease, nowMs), false);
    const last = marks[marks.length - 1];
    const waitMs = waiting
      ? undefined
      : last?.state === 'timed-out'
        ? deadlineMs - queuedAtMs
        : (last?.atMs ?? queuedAtMs) - queuedAtMs;
    return [{ ...base, waitMs, timedOut: !waiting && last?.state === 'timed-out', spells }];
  });
}

/** The wait for admission of the leases requested in a window (seconds). */
export interface QueueWait {
  /** Leases whose wait is known: admitted at once (0), admitted after waiting, or timed out (their maxWait). */
  readonly leases: number;
  /** Of those, the ones that timed out: their maxWait is a floor of what they would have waited. */
  readonly timedOut: number;
  /** Still waiting, or released while they waited: no wait to count yet. */
  readonly unfinished: number;
  readonly p50: number | null;
  readonly p95: number | null;
}

/** GPU-hours leases waited on the account's EC2 quota, and the most GPUs that waited at once. */
export interface AccountQuotaWait {
  readonly gpuHours: number;
  readonly peakGpus: number;
  /** Of `gpuHours`, the waits that ended in a time-out (demand never served), and their leases. */
  readonly timedOut: { readonly leases: number; readonly gpuHours: number };
}

export interface QueueFigures {
  readonly waitSeconds: QueueWait & { readonly byWorkload: Readonly<Partial<Record<Workload, QueueWait>>> };
  /**
   * Time the tenant's leases waited on its own quota: summed over leases
   * (lease-seconds) and as wall-clock time with at least one lease waiting on it.
   */
  readonly overQuota: { readonly leaseSeconds: number; readonly wallSeconds: number };
  /** Waits on the account's EC2 vCPU quota, overall and per region and instance family: what to ask AWS for. */
  readonly accountQuota: AccountQuotaWait & {
    readonly byPool: readonly ({
      readonly region: string | null;
      readonly family: InstanceFamily | null;
    } & AccountQuotaWait)[];
  };
}

function queueWait(waits: readonly LeaseWait[]): QueueWait {
  const known = waits.flatMap((w) => (w.waitMs === undefined ? [] : [w.waitMs / 1000]));
  return {
    leases: known.length,
    timedOut: waits.filter((w) => w.timedOut).length,
    unfinished: waits.length - known.length,
    p50: percentileOf(known, 0.5),
    p95: percentileOf(known, 0.95),
  };
}

interface Span {
  readonly fromMs: number;
  readonly toMs: number;
}

const clipped = (spans: readonly Span[], fromMs: number, toMs: number): Span[] =>
  spans.flatMap((s) => {
    const from = Math.max(s.fromMs, fromMs);
    const to = Math.min(s.toMs, toMs);
    return to > from ? [{ fromMs: from, toMs: to }] : [];
  });

/** The length of the union of the spans. */
function unionMs(spans: readonly Span[]): number {
  let total = 0;
  let end = Number.NEGATIVE_INFINITY;
  for (const span of [...spans].sort((a, b) => a.fromMs - b.fromMs)) {
    if (span.toMs <= end) continue;
    total += span.toMs - Math.max(span.fromMs, end);
    end = span.toMs;
  }
  return total;
}

function accountQuotaWait(
  spells: readonly (QueueSpell & { gpus: number })[],
  fromMs: number,
  toMs: number,
): AccountQuotaWait {
  const timedOut = spells.filter((s) => s.timedOut);
  const use = gpuUse(spells, fromMs, toMs);
  return {
    gpuHours: use.gpuHours,
    peakGpus: use.peakConcurrentGpus,
    timedOut: {
      leases: timedOut.filter((s) => s.toMs > fromMs && s.fromMs < toMs).length,
      gpuHours: gpuUse(timedOut, fromMs, toMs).gpuHours,
    },
  };
}

/**
 * The queue figures of [fromMs, toMs): the wait of the leases requested in
 * the window (p50/p95, overall and by workload), and the parts of waits that
 * fall in it on the tenant's quota and on the account's EC2 quota.
 */
export function queueFigures(waits: readonly LeaseWait[], fromMs: number, toMs: number): QueueFigures {
  const requested = waits.filter((w) => w.requestedAtMs >= fromMs && w.requestedAtMs < toMs);
  const byWorkload: Partial<Record<Workload, QueueWait>> = {};
  for (const workload of new Set(requested.map((w) => w.workload)))
    byWorkload[workload] = queueWait(requested.filter((w) => w.workload === workload));
  const onQuota = clipped(
    waits.flatMap((w) => w.spells.filter((s) => s.reason === 'quota')),
    fromMs,
    toMs,
  );
  const onAccount = waits.flatMap((w) =>
    w.spells.filter((s) => s.reason === 'account-quota').map((s) => ({ ...s, gpus: w.gpus, pool: w })),
  );
  const pools = new Map<string, typeof onAccount>();
  for (const spell of onAccount) {
    const key = `${spell.pool.region}\n${spell.pool.family}`;
    pools.set(key, [...(pools.get(key) ?? []), spell]);
  }
  return {
    waitSeconds: { ...queueWait(requested), byWorkload },
    overQuota: {
      leaseSeconds: onQuota.reduce((sum, s) => sum + s.toMs - s.fromMs, 0) / 1000,
      wallSeconds: unionMs(onQuota) / 1000,
    },
    accountQuota: {
      ...accountQuotaWait(onAccount, fromMs, toMs),
      byPool: [...pools.values()].flatMap((spells) => {
        const wait = accountQuotaWait(spells, fromMs, toMs);
        const { region, family } = (spells[0] as (typeof spells)[number]).pool;
        return wait.gpuHours > 0 || wait.peakGpus > 0 ? [{ region, family, ...wait }] : [];
      }),
    },
  };
}

/** A window no lease waited in. */
export const NO_QUEUE_FIGURES: QueueFigures = queueFigures([], 0, 0);

/** The queue figures of each UTC day of [fromMs, min(toMs, nowMs)), keyed by day (YYYY-MM-DD). */
export function dailyQueueFigures(
  waits: readonly LeaseWait[],
  fromMs: number,
  toMs: number,
  nowMs: number,
): Map<string, QueueFigures> {
  return perUtcDay(fromMs, Math.min(toMs, nowMs), (from, to) => queueFigures(waits, from, to));
}
