import { tenantLimitsSchema } from '../../../shared/domain/tenant-limits';
import { setTenantLimits, type TenantLimitsView, tenantLimits } from '../../../shared/usecases/tenant-limits';
import {
  type ApiEvent,
  type ApiResult,
  json,
  parseJsonBody,
  requireAdmin,
  tenantOf,
  validate,
} from '../http';
import {
  adminErrors,
  authErrors,
  errorResponse,
  jsonContent,
  jsonSchema,
  type OpenApiGroup,
  pathParameterDoc,
  ref,
  responseObject,
} from '../openapi-parts';
import { pathValue, tenantIdParameter } from '../path';
import type { Routes } from '../routing';
import type { ApiContext } from './context';

const limitsView = (view: TenantLimitsView) => ({
  tenantId: view.tenantId,
  limits: view.limits,
  isDefault: view.isDefault,
});

/** Replaces the tenant's limits; every API instance applies them within LIMITS_CACHE_MS (a minute). */
export async function putTenantLimits(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  requireAdmin(event);
  const tenantId = pathValue(event, tenantIdParameter);
  const body = validate(tenantLimitsSchema, parseJsonBody(event), 'body');
  const view = await setTenantLimits(ctx.deps, tenantId, body);
  ctx.limits.forget(tenantId);
  return json(200, limitsView(view));
}

export async function getTenantLimits(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  requireAdmin(event);
  return json(200, limitsView(await tenantLimits(ctx.deps, pathValue(event, tenantIdParameter))));
}

export async function getOwnLimits(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  return json(200, limitsView(await tenantLimits(ctx.deps, tenantOf(event))));
}

export const limitRoutes = {
  'GET /v1/limits': { handle: getOwnLimits },
  'PUT /v1/admin/tenants/{tenantId}/limits': { handle: putTenantLimits },
  'GET /v1/admin/tenants/{tenantId}/limits': { handle: getTenantLimits },
} as const satisfies Routes;

export const limitOpenApi = (): OpenApiGroup<keyof typeof limitRoutes> => {
  const tenantIdDoc = pathParameterDoc(tenantIdParameter, 'The tenant the limits are for');
  const limitsResponse = (description: string) => ({
    description,
    content: jsonContent(ref('TenantLimits')),
  });
  return {
    tag: {
      name: 'Limits',
      description:
        'What one tenant may ask of the shared control plane, so that no tenant slows the others: API requests a second, scaling groups and leases waiting to start',
    },
    schemas: {
      TenantLimitsRequest: jsonSchema(tenantLimitsSchema),
      TenantLimits: responseObject({
        tenantId: { type: 'string' },
        limits: jsonSchema(tenantLimitsSchema, 'output'),
        isDefault: {
          type: 'boolean',
          description: 'True when no admin set limits for the tenant: the defaults apply',
        },
      }),
    },
    operations: {
      'GET /v1/limits': {
        operationId: 'getLimits',
        summary: "The caller's limits in force",
        description:
          'requestsPerSecond: API requests counted in each UTC second across every API instance (past it: 429 RATE_LIMITED with Retry-After); maxScalingGroups: groups at once (past it: 409 SCALING_GROUP_CAP_REACHED); maxWaitingLeases: leases PENDING or QUEUED at once (past it: 429 WAITING_LEASES_CAP_REACHED with Retry-After, on POST /v1/leases). Conditions per group are bounded by 10 (400 VALIDATION_FAILED).',
        responses: { '200': limitsResponse('The limits in force'), ...authErrors },
      },
      'PUT /v1/admin/tenants/{tenantId}/limits': {
        operationId: 'putTenantLimits',
        summary: "Admin: set a tenant's limits",
        description:
          'Replaces the tenant’s limits (an omitted field takes its default); every API instance applies them within a minute. Nothing is stored on a 400.',
        parameters: [tenantIdDoc],
        requestBody: { required: true, content: jsonContent(ref('TenantLimitsRequest')) },
        responses: {
          '200': limitsResponse('The limits now in force'),
          '400': errorResponse('VALIDATION_FAILED, INVALID_JSON, BODY_REQUIRED or INVALID_TENANT_ID'),
          ...adminErrors,
        },
      },
      'GET /v1/admin/tenants/{tenantId}/limits': {
        operationId: 'getTenantLimits',
        summary: "Admin: a tenant's limits in force",
        description: "The tenant's own limits, or the defaults when none are set.",
        parameters: [tenantIdDoc],
        responses: {
          '200': limitsResponse('The limits in force'),
          '400': errorResponse('INVALID_TENANT_ID'),
          ...adminErrors,
        },
      },
    },
  };
};
