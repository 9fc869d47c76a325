import type { RentalMode } from './lease';
import type { MicroUsd } from './money';

export const USAGE_GROUPINGS = ['mode', 'lease', 'instanceType', 'project', 'day'] as const;
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
  readonly seconds: number;
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
