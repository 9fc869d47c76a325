import * as z from '../zod';

/**
 * What one tenant may ask of the shared control plane, so that one tenant
 * cannot slow the others: its API request rate, how many scaling groups it
 * keeps and how many of its leases wait to start at once. Conditions per group
 * have their own fixed bound (MAX_CONDITIONS).
 */
export interface TenantLimits {
  /** Requests a second, counted in each UTC second across every API instance; also the burst. */
  readonly requestsPerSecond: number;
  readonly maxScalingGroups: number;
  /** Leases not yet started (PENDING or QUEUED) at once; one more is refused until one starts or ends. */
  readonly maxWaitingLeases: number;
}

/**
 * Defaults for tenants an admin set none for: 20 requests a second (a CLI
 * following a few leases makes 1-2; the stage-wide throttle is 50, so two
 * busy tenants cannot take all of it), 20 scaling groups and 100 waiting
 * leases (every one is read by each admission pass and the reconciler's walk).
 */
export const DEFAULT_TENANT_LIMITS: TenantLimits = {
  requestsPerSecond: 20,
  maxScalingGroups: 20,
  maxWaitingLeases: 100,
};

export const MAX_REQUESTS_PER_SECOND = 1000;
export const MAX_SCALING_GROUPS_CAP = 1000;
/**
 * The highest cap an admin may set on waiting leases: the count reads at most
 * the cap's keys from the waiting-leases index (about 100 bytes each), so even
 * at this cap it is one page of DynamoDB's 1 MB.
 */
export const MAX_WAITING_LEASES_CAP = 5000;

const count = (max: number, min = 0) =>
  z
    .number('must be a whole number')
    .check(
      z.int('must be a whole number'),
      z.gte(min, `must be at least ${min}`),
      z.lte(max, `must be at most ${max}`),
    );

/** What an admin sends with `PUT /v1/admin/tenants/{tenantId}/limits` (omitted fields keep the default). */
export const tenantLimitsSchema = z.strictObject({
  requestsPerSecond: z._default(count(MAX_REQUESTS_PER_SECOND, 1), DEFAULT_TENANT_LIMITS.requestsPerSecond),
  maxScalingGroups: z._default(count(MAX_SCALING_GROUPS_CAP), DEFAULT_TENANT_LIMITS.maxScalingGroups),
  maxWaitingLeases: z._default(count(MAX_WAITING_LEASES_CAP), DEFAULT_TENANT_LIMITS.maxWaitingLeases),
});

/**
 * The one-second window a request is counted in, and how long until the next
 * one opens (whole seconds, at least 1, as Retry-After takes them).
 */
export function rateWindowOf(nowMs: number): { readonly second: number; readonly retryAfterSeconds: number } {
  return { second: Math.floor(nowMs / 1000), retryAfterSeconds: 1 };
}
