import * as z from '../zod';

/**
 * What one tenant may ask of the shared control plane, so that one tenant
 * cannot slow the others: its API request rate and how many scaling groups it
 * keeps. Conditions per group have their own fixed bound (MAX_CONDITIONS).
 */
export interface TenantLimits {
  /** Requests a second, counted in each UTC second across every API instance; also the burst. */
  readonly requestsPerSecond: number;
  readonly maxScalingGroups: number;
}

/**
 * Defaults for tenants an admin set none for: 20 requests a second (a CLI
 * following a few leases makes 1-2; the stage-wide throttle is 50, so two
 * busy tenants cannot take all of it) and 20 scaling groups.
 */
export const DEFAULT_TENANT_LIMITS: TenantLimits = {
  requestsPerSecond: 20,
  maxScalingGroups: 20,
};

export const MAX_REQUESTS_PER_SECOND = 1000;
export const MAX_SCALING_GROUPS_CAP = 1000;

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
});

/**
 * The one-second window a request is counted in, and how long until the next
 * one opens (whole seconds, at least 1, as Retry-After takes them).
 */
export function rateWindowOf(nowMs: number): { readonly second: number; readonly retryAfterSeconds: number } {
  return { second: Math.floor(nowMs / 1000), retryAfterSeconds: 1 };
}
