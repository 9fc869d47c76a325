import type { Aggregate, SpendScope } from '../domain/spend';

/** Key layout of the leases and usage tables (one partition per tenant). */
export const tenantKey = (tenantId: string) => `TENANT#${tenantId}`;
export const leaseKey = (leaseId: string) => `LEASE#${leaseId}`;
export const instancePrefix = (leaseId: string) => `INSTANCE#${leaseId}#`;
export const instanceKey = (leaseId: string, instanceId: string) => `${instancePrefix(leaseId)}${instanceId}`;
export const usageKey = (atMs: number, instanceId: string) => `${new Date(atMs).toISOString()}#${instanceId}`;
/** The closing charge of a run has a key of its own: it may fall on the instant of the run's last tick. */
export const closingUsageKey = (atMs: number, instanceId: string) => `${usageKey(atMs, instanceId)}#end`;
/** Value of the sparse GSI key that lists instances whose bill is still open. */
export const METERING_OPEN = 'OPEN';
export const budgetKey = (name: string) => `BUDGET#${name}`;
/**
 * Aggregates (spend table), all under the tenant's partition:
 * `MONTH#<yyyy-mm>#TENANT` | `…#PROJECT#<p>` | `…#MODE#<m>` (month-to-date counters),
 * `DAY#<yyyy-mm-dd>#<mode>#<type>#<project>` (daily rollups),
 * `LEASEDAY#<yyyy-mm-dd>#<leaseId>` (daily per-lease rollups),
 * `DIMDAY#<yyyy-mm-dd>#<storage|transfer>#<mode>` (daily storage and transfer: compute is the rest).
 */
export function spendKey(month: string, scope: SpendScope): string {
  switch (scope.kind) {
    case 'tenant':
      return `MONTH#${month}#TENANT`;
    case 'project':
      return `MONTH#${month}#PROJECT#${scope.project}`;
    case 'mode':
      return `MONTH#${month}#MODE#${scope.mode}`;
  }
}
export const dayRollupPrefix = (day: string) => `DAY#${day}`;
export const leaseDayPrefix = (day: string) => `LEASEDAY#${day}`;
export const dimensionDayPrefix = (day: string) => `DIMDAY#${day}`;

export function aggregateKey(aggregate: Aggregate): string {
  switch (aggregate.kind) {
    case 'month':
      return spendKey(aggregate.month, aggregate.scope);
    case 'day':
      return `${dayRollupPrefix(aggregate.day)}#${aggregate.mode}#${aggregate.instanceType}#${aggregate.project ?? ''}`;
    case 'lease-day':
      return `${leaseDayPrefix(aggregate.day)}#${aggregate.leaseId}`;
    case 'dimension-day':
      return `${dimensionDayPrefix(aggregate.day)}#${aggregate.dimension}#${aggregate.mode}`;
  }
}
/** The tenant's settings item, next to its leases. */
export const SETTINGS_KEY = 'SETTINGS';
/** Reserved commitments share one partition of the leases table (a handful of items). */
export const COMMITMENTS_PARTITION = 'COMMITMENTS';
export const commitmentKey = (id: string) => `COMMITMENT#${id}`;
/** Idle reserved time, in the usage table under its commitment. */
export const idleUsageKey = (commitmentId: string, atMs: number) => ({
  pk: `COMMITMENT#${commitmentId}`,
  sk: `${new Date(atMs).toISOString()}#idle`,
});
/**
 * Idle reserved time of one month per commitment, in the usage table: the
 * month's partition lists every commitment that was idle in it, deleted ones too.
 */
export const idleMonthKey = (month: string, commitmentId: string) => ({
  pk: `IDLE#${month}`,
  sk: commitmentKey(commitmentId),
});
/** GPU images and their versions share one partition of the leases table. */
export const IMAGES_PARTITION = 'IMAGES';
export const imageKey = (name: string) => `IMAGE#${name}`;
export const imageVersionKey = (name: string, version: string) => `IMAGE#${name}#VERSION#${version}`;
/** A spot pool's price history: one partition per pool in the leases table, changes by instant. */
export const spotPricePartition = (poolKey: string) => `SPOTPRICE#${poolKey}`;
/** Zero-padded so the sort order of the keys is the order of the instants. */
export const spotPriceKey = (fromMs: number) => `FROM#${String(fromMs).padStart(16, '0')}`;

export const WARM_POOLS_PARTITION = 'WARMPOOLS';
export const warmPoolKey = (name: string) => `POOL#${name}`;
export const WARM_MACHINE_PREFIX = 'MACHINE#';
export const warmMachineKey = (pool: string, instanceId: string) =>
  `${WARM_MACHINE_PREFIX}${pool}#${instanceId}`;
