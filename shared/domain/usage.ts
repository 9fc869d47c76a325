import type { RentalMode } from './lease';
import type { MicroUsd } from './money';

export const USAGE_GROUPINGS = ['mode', 'lease', 'instanceType', 'project'] as const;
/** The group of charges of leases without a project label. */
export const NO_PROJECT = '(none)';
export type UsageGrouping = (typeof USAGE_GROUPINGS)[number];

/** The fields of a charge that usage reports read. */
export interface ChargeLine {
  readonly leaseId: string;
  readonly instanceType: string;
  readonly mode: RentalMode;
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

const groupKey: Record<UsageGrouping, (line: ChargeLine) => string> = {
  mode: (line) => line.mode,
  lease: (line) => line.leaseId,
  instanceType: (line) => line.instanceType,
  project: (line) => line.project ?? NO_PROJECT,
};

/** Sums charges per group, largest cost first (ties by key, so output is stable). */
export function summarizeUsage(lines: readonly ChargeLine[], grouping: UsageGrouping): UsageSummary {
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
  return {
    seconds,
    microUsd,
    groups: [...groups.entries()]
      .map(([key, group]) => ({ key, ...group }))
      .sort((a, b) => b.microUsd - a.microUsd || a.key.localeCompare(b.key)),
  };
}
