import type { MicroUsd } from '../money';
import { NO_PROJECT, type UsageGrouping } from '../usage';
import { NO_PROJECT as LEDGER_NO_PROJECT } from './idle-ledger';

/** A waste ledger rollup as usage reports read it (tenant, project or lease level of one day). */
export interface IdleRollup {
  readonly day: string;
  readonly kind: 'tenant' | 'project' | 'lease';
  readonly project?: string | undefined;
  readonly leaseId?: string | undefined;
  readonly idleMicroUsd: MicroUsd;
}

export interface IdleUsage {
  readonly idleMicroUsd: MicroUsd;
  /**
   * Idle cost per usage group key, for the groupings the ledger keeps (day,
   * project, lease); undefined for mode and instance type, which it does not.
   */
  readonly byGroup?: ReadonlyMap<string, MicroUsd> | undefined;
}

const LEVEL: Partial<Record<UsageGrouping, IdleRollup['kind']>> = {
  day: 'tenant',
  project: 'project',
  lease: 'lease',
};

/** Sums the ledger's rollups as `GET /v1/usage` groups charges: the total from the tenant level. */
export function idleUsage(rollups: readonly IdleRollup[], grouping: UsageGrouping): IdleUsage {
  const total = rollups.filter((r) => r.kind === 'tenant').reduce((sum, r) => sum + r.idleMicroUsd, 0);
  const level = LEVEL[grouping];
  if (!level) return { idleMicroUsd: total };
  const byGroup = new Map<string, MicroUsd>();
  for (const rollup of rollups.filter((r) => r.kind === level)) {
    const key =
      grouping === 'day'
        ? rollup.day
        : grouping === 'lease'
          ? (rollup.leaseId ?? 'unknown')
          : rollup.project === undefined || rollup.project === LEDGER_NO_PROJECT
            ? NO_PROJECT
            : rollup.project;
    byGroup.set(key, (byGroup.get(key) ?? 0) + rollup.idleMicroUsd);
  }
  return { idleMicroUsd: total, byGroup };
}

/**
 * A day's idle GPU-hours and their share of the day's GPU-hours, from the
 * ledger's tenant-level rollup (null share: no GPU ran that day).
 */
export function idleShareOfDay(
  rollups: readonly (IdleRollup & { readonly idleGpuSeconds: number })[],
  day: string,
  gpuHours: number,
): { idleGpuHours: number; idleMicroUsd: MicroUsd; idleShare: number | null } {
  const tenantDay = rollups.find((r) => r.kind === 'tenant' && r.day === day);
  const idleGpuHours = Math.round(((tenantDay?.idleGpuSeconds ?? 0) / 3600) * 1000) / 1000;
  return {
    idleGpuHours,
    idleMicroUsd: tenantDay?.idleMicroUsd ?? 0,
    idleShare: gpuHours > 0 ? Math.round(Math.min(1, idleGpuHours / gpuHours) * 1000) / 1000 : null,
  };
}
