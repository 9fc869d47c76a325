import { jsonText } from '../config';
import { DEFAULT_QUOTA, quotaBodySchema, quotaFromBody } from '../domain/admission/quota';
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
