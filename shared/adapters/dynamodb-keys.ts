import type { SpendScope } from '../domain/spend';

/** Key layout of the leases and usage tables (one partition per tenant). */
export const tenantKey = (tenantId: string) => `TENANT#${tenantId}`;
export const leaseKey = (leaseId: string) => `LEASE#${leaseId}`;
export const instancePrefix = (leaseId: string) => `INSTANCE#${leaseId}#`;
export const instanceKey = (leaseId: string, instanceId: string) => `${instancePrefix(leaseId)}${instanceId}`;
export const usageKey = (atMs: number, instanceId: string) => `${new Date(atMs).toISOString()}#${instanceId}`;
/** Value of the sparse GSI key that lists instances whose bill is still open. */
export const METERING_OPEN = 'OPEN';
export const budgetKey = (name: string) => `BUDGET#${name}`;
/** Spend counters: `MONTH#<yyyy-mm>#TENANT`, `…#PROJECT#<p>`, `…#MODE#<m>`, `…#LEASE#<id>`. */
export const spendMonthPrefix = (month: string) => `MONTH#${month}#`;
export function spendKey(month: string, scope: SpendScope): string {
  const prefix = spendMonthPrefix(month);
  switch (scope.kind) {
    case 'tenant':
      return `${prefix}TENANT`;
    case 'project':
      return `${prefix}PROJECT#${scope.project}`;
    case 'mode':
      return `${prefix}MODE#${scope.mode}`;
    case 'lease':
      return `${prefix}LEASE#${scope.leaseId}`;
  }
}
/** The tenant's settings item, next to its leases. */
export const SETTINGS_KEY = 'SETTINGS';
