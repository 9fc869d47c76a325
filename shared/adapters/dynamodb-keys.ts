/** Key layout of the leases and usage tables (one partition per tenant). */
export const tenantKey = (tenantId: string) => `TENANT#${tenantId}`;
export const leaseKey = (leaseId: string) => `LEASE#${leaseId}`;
export const instancePrefix = (leaseId: string) => `INSTANCE#${leaseId}#`;
export const instanceKey = (leaseId: string, instanceId: string) => `${instancePrefix(leaseId)}${instanceId}`;
export const usageKey = (atMs: number, instanceId: string) => `${new Date(atMs).toISOString()}#${instanceId}`;
/** Value of the sparse GSI key that lists instances whose bill is still open. */
export const METERING_OPEN = 'OPEN';
/** Reserved commitments share one partition of the leases table (a handful of items). */
export const COMMITMENTS_PARTITION = 'COMMITMENTS';
export const commitmentKey = (id: string) => `COMMITMENT#${id}`;
/** Idle reserved time, in the usage table under its commitment. */
export const idleUsageKey = (commitmentId: string, atMs: number) => ({
  pk: `COMMITMENT#${commitmentId}`,
  sk: `${new Date(atMs).toISOString()}#idle`,
});
/** GPU images and their versions share one partition of the leases table. */
export const IMAGES_PARTITION = 'IMAGES';
export const imageKey = (name: string) => `IMAGE#${name}`;
export const imageVersionKey = (name: string, version: string) => `IMAGE#${name}#VERSION#${version}`;
