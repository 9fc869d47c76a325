import { jsonText } from '../config';
import { DEFAULT_QUOTA, quotaBodySchema, quotaFromBody } from '../domain/admission/quota';
import { DEFAULT_TENANT_LIMITS, tenantLimitsSchema } from '../domain/tenant-limits';
import * as z from '../zod';
import { portFactory } from './port-factory';

/**
 * The quota of tenants an admin has set none for. `DEFAULT_TENANT_QUOTA` is a
 * quota body as `PUT /v1/admin/tenants/{tenantId}/quota` takes it (the same
 * schema, so the same rules: whole GPUs, exact money, weight 0.01-100), e.g.
 * `{"maxGpus":16,"maxHourlyUsd":250}`; absent, DEFAULT_QUOTA.
 */
export const defaultTenantQuota = () =>
  portFactory({
    env: { DEFAULT_TENANT_QUOTA: z.optional(z.pipe(jsonText, quotaBodySchema)) },
    reaches: [],
    create: (env) => (env.DEFAULT_TENANT_QUOTA ? quotaFromBody(env.DEFAULT_TENANT_QUOTA) : DEFAULT_QUOTA),
  });

/**
 * The limits of tenants an admin has set none for. `DEFAULT_TENANT_LIMITS` is a
 * limits body as `PUT /v1/admin/tenants/{tenantId}/limits` takes it (omitted
 * fields keep the built-in default), e.g. `{"requestsPerSecond":50}`; absent,
 * DEFAULT_TENANT_LIMITS (20 requests a second).
 */
export const defaultTenantLimits = () =>
  portFactory({
    env: { DEFAULT_TENANT_LIMITS: z.optional(z.pipe(jsonText, tenantLimitsSchema)) },
    reaches: [],
    create: (env) => env.DEFAULT_TENANT_LIMITS ?? DEFAULT_TENANT_LIMITS,
  });
