import type { RentalMode } from './lease';
import type { MicroUsd } from './money';
import type { BillingDimension, ExtraDimension } from './spend';

export const USAGE_GROUPINGS = ['mode', 'lease', 'instanceType', 'project', 'day', 'dimension'] as const;
export type UsageGrouping = (typeof USAGE_GROUPINGS)[number];
/** The grouping of a usage report that names none. */
export const DEFAULT_USAGE_GROUPING: UsageGrouping = 'mode';
/** The group of charges of leases without a project label. */
export const NO_PROJECT = '(none)';

/**
 * One rollup as usage reports read it: a day's charges of one mode, instance
 * type and project, or of one lease (then mode and instance type are absent).
 */
export interface UsageLine {
  readonly day: string;
  readonly leaseId?: string | undefined;
  readonly instanceType?: string | undefined;
  readonly mode?: RentalMode | undefined;
  readonly project?: string | undefined;
  /** Absent on the daily rollups, which hold every dimension. */
  readonly dimension?: BillingDimension | undefined;
  readonly seconds: number;
  readonly microUsd: MicroUsd;
}

/** A day's charges of one dimension besides compute, from its own rollup. */
export interface DimensionLine {
  readonly day: string;
  readonly dimension: ExtraDimension;
  readonly mode: RentalMode;
  readonly microUsd: MicroUsd;
}

export interface UsageGroup {
  readonly key: string;
  readonly seconds: number;
  readonly microUsd: MicroUsd;
}

export interface UsageSummary {
  readonly seconds: number;
  readonly microUsd: MicroUsd;
  readonly groups: readonly UsageGroup[];
}

/** Grouping by lease reads the per-lease rollups; every other grouping the daily ones. */
export const readsLeaseRollups = (grouping: UsageGrouping) => grouping === 'lease';

const groupKey: Record<UsageGrouping, (line: UsageLine) => string> = {
  mode: (line) => line.mode ?? 'unknown',
  lease: (line) => line.leaseId ?? 'unknown',
  instanceType: (line) => line.instanceType ?? 'unknown',
  project: (line) => line.project ?? NO_PROJECT,
  day: (line) => line.day,
  dimension: (line) => line.dimension ?? 'compute',
};

/**
 * Sums lines per group, largest cost first (ties by key, so output is stable);
 * by day, in calendar order.
 */
export function summarizeUsage(lines: readonly UsageLine[], grouping: UsageGrouping): UsageSummary {
  const groups = new Map<string, { seconds: number; microUsd: number }>();
  let seconds = 0;
  let microUsd = 0;
  for (const line of lines) {
    const key = groupKey[grouping](line);
    const group = groups.get(key) ?? { seconds: 0, microUsd: 0 };
    group.seconds += line.seconds;
    group.microUsd += line.microUsd;
    groups.set(key, group);
    seconds += line.seconds;
    microUsd += line.microUsd;
  }
  const order =
    grouping === 'day'
      ? (a: UsageGroup, b: UsageGroup) => a.key.localeCompare(b.key)
      : (a: UsageGroup, b: UsageGroup) => b.microUsd - a.microUsd || a.key.localeCompare(b.key);
  return {
    seconds,
    microUsd,
    groups: [...groups.entries()].map(([key, group]) => ({ key, ...group })).sort(order),
  };
}

/**
 * Daily rollups split by dimension: storage and transfer from their own
 * rollups, compute the rest of each day (so days metered before storage was
 * billed read as compute). Seconds are instance-seconds, compute's alone.
 */
export function dimensionLines(days: readonly UsageLine[], extras: readonly DimensionLine[]): UsageLine[] {
  const totals = new Map<string, { seconds: number; microUsd: number }>();
  for (const line of days) {
    const total = totals.get(line.day) ?? { seconds: 0, microUsd: 0 };
    totals.set(line.day, { seconds: total.seconds + line.seconds, microUsd: total.microUsd + line.microUsd });
  }
  for (const extra of extras) {
    const total = totals.get(extra.day) ?? { seconds: 0, microUsd: 0 };
    totals.set(extra.day, { ...total, microUsd: total.microUsd - extra.microUsd });
  }
  return [
    ...[...totals].map(([day, total]): UsageLine => ({ day, dimension: 'compute', ...total })),
    ...extras.map((extra): UsageLine => ({ ...extra, seconds: 0 })),
  ];
}
