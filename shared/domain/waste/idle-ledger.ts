import { type InstanceRun, pricedSecondsOf } from '../billing';
import { type MicroUsd, MoneyOverflowError } from '../money';
import type { GpuSeries } from './idle-window';

const MINUTE_MS = 60_000;
const SECONDS_PER_HOUR = 3600;

/**
 * The idle side of an instance's metering checkpoint: the billed seconds
 * already looked at, the exact integral of their idle cost (Σ idle GPU-device
 * seconds × µ$/h, so that rounding happens once on the total) and the
 * micro-dollars already put in the ledger.
 */
export interface IdleCheckpoint {
  readonly billedSeconds: number;
  readonly idleIntegral: number;
  readonly idleMicroUsd: MicroUsd;
}

export const EMPTY_IDLE_CHECKPOINT: IdleCheckpoint = { billedSeconds: 0, idleIntegral: 0, idleMicroUsd: 0 };

/** For each minute, how many GPUs of an instance were below the line (a minute without a sample counts none). */
export function idleGpusByMinute(series: readonly GpuSeries[], belowPercent: number): Map<number, number> {
  const idle = new Map<number, number>();
  for (const { samples } of series) {
    const counted = new Set<number>();
    for (const sample of samples) {
      if (sample.percent >= belowPercent || counted.has(sample.minuteMs)) continue;
      counted.add(sample.minuteMs);
      idle.set(sample.minuteMs, (idle.get(sample.minuteMs) ?? 0) + 1);
    }
  }
  return idle;
}

export interface IdleChargeInput {
  readonly run: InstanceRun;
  /** `catalog.gpusPerInstance` of the type: 8 for a p4d, 0.125 for a g6f.large. */
  readonly gpusPerInstance: number;
  readonly checkpoint: IdleCheckpoint;
  /** The billing checkpoint's seconds after this metering run. */
  readonly billedSeconds: number;
  /** From `idleGpusByMinute`: GPUs below the line per minute start. */
  readonly idleGpus: ReadonlyMap<number, number>;
}

/** One UTC day's share of an idle charge. */
export interface IdleDay {
  readonly day: string;
  /** GPU-seconds below the line (a fractional GPU counts its fraction). */
  readonly idleGpuSeconds: number;
  readonly idleMicroUsd: MicroUsd;
}

export interface IdleCharge {
  readonly days: readonly IdleDay[];
  readonly checkpoint: IdleCheckpoint;
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The idle part of the seconds billed since the checkpoint. Billing's rules:
 * second k of a run (from launch) costs the price in force at its start and
 * belongs to the minute containing its start; it is idle for as many of the
 * instance's GPUs as were below the line in that minute, each GPU carrying an
 * equal share of the instance's price. Like a bill, the cost is the exact
 * integral rounded half up once on the running total and differenced, so a
 * run's idle micro-dollars never depend on how metering sliced it, and a
 * fully idle instance's idle cost is its bill.
 */
export function idleChargeUpTo(input: IdleChargeInput): IdleCharge {
  const { run, checkpoint } = input;
  const devices = Math.max(1, Math.floor(input.gpusPerInstance));
  const gpusPerDevice = input.gpusPerInstance / devices;
  const from = checkpoint.billedSeconds;
  const to = Math.max(from, input.billedSeconds);
  const stretches = pricedSecondsOf(run, to);
  const perDay = new Map<string, { deviceSeconds: number; integral: number }>();
  let stretch = 0;
  let stretchEnd = stretches[0]?.seconds ?? 0;
  let minute = Math.floor((run.launchedAtMs + from * 1000) / MINUTE_MS) * MINUTE_MS;
  for (; ; minute += MINUTE_MS) {
    const first = Math.max(from, Math.ceil((minute - run.launchedAtMs) / 1000));
    const end = Math.min(to, Math.ceil((minute + MINUTE_MS - run.launchedAtMs) / 1000));
    if (first >= to) break;
    const idle = input.idleGpus.get(minute) ?? 0;
    if (idle === 0 || end <= first) continue;
    const day = perDay.get(dayOf(minute)) ?? { deviceSeconds: 0, integral: 0 };
    for (let second = first; second < end; ) {
      while (second >= stretchEnd && stretch < stretches.length - 1) {
        stretch += 1;
        stretchEnd += stretches[stretch]?.seconds ?? 0;
      }
      const upTo = Math.min(end, stretchEnd);
      const seconds = upTo - second;
      day.deviceSeconds += idle * seconds;
      day.integral += idle * seconds * (stretches[stretch]?.priceMicroPerHour ?? 0);
      second = upTo;
    }
    perDay.set(dayOf(minute), day);
  }
  let integral = checkpoint.idleIntegral;
  let billed = checkpoint.idleMicroUsd;
  const days: IdleDay[] = [];
  for (const [day, share] of [...perDay].sort(([a], [b]) => a.localeCompare(b))) {
    integral += share.integral;
    if (!Number.isSafeInteger(integral)) throw new MoneyOverflowError(integral);
    const total = roundHalfUp(integral, SECONDS_PER_HOUR * devices);
    days.push({ day, idleGpuSeconds: share.deviceSeconds * gpusPerDevice, idleMicroUsd: total - billed });
    billed = total;
  }
  return { days, checkpoint: { billedSeconds: to, idleIntegral: integral, idleMicroUsd: billed } };
}

const roundHalfUp = (numerator: number, denominator: number) =>
  Math.floor((numerator + denominator / 2) / denominator);

/** One ledger row: a lease's idle time on one day, as the evaluator stores it. */
export interface IdleLedgerRow {
  readonly tenantId: string;
  readonly project?: string | undefined;
  readonly leaseId: string;
  readonly day: string;
  readonly idleGpuSeconds: number;
  readonly idleMicroUsd: MicroUsd;
}

export interface IdleTotals {
  readonly idleGpuSeconds: number;
  readonly idleMicroUsd: MicroUsd;
}

/**
 * The rollups a row adds to, within its tenant: the tenant's day, the
 * project's day (`-` for leases without a project) and the lease's day. Each
 * row adds the same integers to each, so every level sums exactly to its parts.
 */
export function idleRollupKeys(row: Pick<IdleLedgerRow, 'project' | 'leaseId' | 'day'>): string[] {
  // Day first, so that a range of days is one key range for every level.
  return [
    `${row.day}#TENANT`,
    `${row.day}#PROJECT#${row.project ?? NO_PROJECT}`,
    `${row.day}#LEASE#${row.leaseId}`,
  ];
}

/** The project rollup of leases without a project. */
export const NO_PROJECT = '-';

/** Adds rows into rollups keyed `tenantId|rollupKey`, as a batch of ledger updates would. */
export function rollUpIdle(rows: readonly IdleLedgerRow[]): Map<string, IdleTotals> {
  const rollups = new Map<string, IdleTotals>();
  for (const row of rows) {
    for (const key of idleRollupKeys(row)) {
      const at = `${row.tenantId}|${key}`;
      const sum = rollups.get(at) ?? { idleGpuSeconds: 0, idleMicroUsd: 0 };
      rollups.set(at, {
        idleGpuSeconds: sum.idleGpuSeconds + row.idleGpuSeconds,
        idleMicroUsd: sum.idleMicroUsd + row.idleMicroUsd,
      });
    }
  }
  return rollups;
}
