import { formatUsdForPeople, type MicroUsd } from '../money';

/**
 * The finding's line: idle GPU time above a fifth of the month's bill. A lease
 * between jobs, or waiting on data, leaves some idle seconds in every bill; a
 * fifth is where the idle policy's release would clearly pay (the public
 * re-analyses of fleets find 13-21% of paid capacity empty, issue 18).
 */
export const IDLE_SHARE_FINDING = 0.2;
/** How many of the idlest leases the audit names. */
export const IDLEST_LEASES = 5;

/** One idle rollup of the waste ledger (a day's, summed as the audit reads them): a tenant, a project (`-`: none) or a lease (with its project). */
export interface IdleRollup {
  readonly kind: 'tenant' | 'project' | 'lease';
  readonly project?: string | undefined;
  readonly leaseId?: string | undefined;
  readonly idleGpuSeconds: number;
  readonly idleMicroUsd: MicroUsd;
}

export interface IdleFigures {
  readonly idleGpuHours: number;
  readonly idleMicroUsd: MicroUsd;
}

/** What idle GPU time cost in the month, from the waste ledger's daily rollups. */
export interface IdleCost extends IdleFigures {
  readonly source: 'idle-ledger';
  /** Of the month's cost, 0-1. */
  readonly share: number;
  /** Dearest first; `-` is the leases without a project. */
  readonly byProject: readonly ({ readonly project: string } & IdleFigures)[];
  /** The IDLEST_LEASES leases whose idle time cost most, dearest first. */
  readonly idlestLeases: readonly ({ readonly leaseId: string; readonly project: string } & IdleFigures)[];
}

const hours = (seconds: number) => Math.round((seconds / 3600) * 100) / 100;

function summed<Key extends string>(rows: readonly IdleRollup[], keyOf: (row: IdleRollup) => Key) {
  const sums = new Map<Key, { seconds: number; micro: number; project: string }>();
  for (const row of rows) {
    const key = keyOf(row);
    const sum = sums.get(key) ?? { seconds: 0, micro: 0, project: row.project ?? '-' };
    sums.set(key, { ...sum, seconds: sum.seconds + row.idleGpuSeconds, micro: sum.micro + row.idleMicroUsd });
  }
  return [...sums]
    .sort(([a, x], [b, y]) => y.micro - x.micro || a.localeCompare(b))
    .map(([key, sum]) => ({
      key,
      project: sum.project,
      idleGpuHours: hours(sum.seconds),
      idleMicroUsd: sum.micro,
    }));
}

/** The month's idle cost: the tenant rollups' total, by project, and the idlest leases. */
export function idleCostOf(rollups: readonly IdleRollup[], monthCostMicroUsd: MicroUsd): IdleCost {
  const tenant = rollups.filter((r) => r.kind === 'tenant');
  const idleMicroUsd = tenant.reduce((sum, r) => sum + r.idleMicroUsd, 0);
  return {
    source: 'idle-ledger',
    idleGpuHours: hours(tenant.reduce((sum, r) => sum + r.idleGpuSeconds, 0)),
    idleMicroUsd,
    share: monthCostMicroUsd === 0 ? 0 : idleMicroUsd / monthCostMicroUsd,
    byProject: summed(
      rollups.filter((r) => r.kind === 'project'),
      (r) => r.project ?? '-',
    ).map(({ key, idleGpuHours, idleMicroUsd: micro }) => ({
      project: key,
      idleGpuHours,
      idleMicroUsd: micro,
    })),
    idlestLeases: summed(
      rollups.filter((r) => r.kind === 'lease'),
      (r) => r.leaseId ?? '',
    )
      .slice(0, IDLEST_LEASES)
      .map(({ key, project, idleGpuHours, idleMicroUsd: micro }) => ({
        leaseId: key,
        project,
        idleGpuHours,
        idleMicroUsd: micro,
      })),
  };
}

/** The finding when idle time passes IDLE_SHARE_FINDING of the bill; none below it. */
export function idleFinding(idle: IdleCost): string | undefined {
  if (idle.share <= IDLE_SHARE_FINDING) return undefined;
  const worst = idle.idlestLeases[0];
  return (
    `GPUs sat idle (every GPU of a lease below its idle line) for ${idle.idleGpuHours} GPU-hours, ` +
    `${formatUsdForPeople(idle.idleMicroUsd)} or ${Math.round(idle.share * 100)}% of the month's cost, ` +
    `above the ${IDLE_SHARE_FINDING * 100}% this audit flags` +
    (worst ? `; the idlest lease was ${worst.leaseId} (${formatUsdForPeople(worst.idleMicroUsd)})` : '') +
    '. An idle policy with action release ends such leases for you (PUT /v1/idle-policy).'
  );
}
