import { quotaBodySchema, quotaFromBody, quotaToBody } from '../../../shared/domain/admission/quota';
import { microToUsd } from '../../../shared/domain/money';
import { setTenantQuota, type TenantQuota, tenantQuota } from '../../../shared/usecases/admission/quotas';
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

const quotaView = (view: TenantQuota) => ({
  tenantId: view.tenantId,
  quota: quotaToBody(view.quota),
  isDefault: view.isDefault,
  usage: {
    gpus: view.usage.gpus,
    hourlyUsd: microToUsd(view.usage.hourlyMicroUsd),
    gpusByMode: view.usage.gpusByMode,
  },
});

export async function putTenantQuota(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  requireAdmin(event);
  const tenantId = pathValue(event, tenantIdParameter);
  const body = validate(quotaBodySchema, parseJsonBody(event), 'body');
  return json(200, quotaView(await setTenantQuota(ctx.deps, tenantId, quotaFromBody(body))));
}

export async function getTenantQuota(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  requireAdmin(event);
  return json(200, quotaView(await tenantQuota(ctx.deps, pathValue(event, tenantIdParameter))));
}

export async function getOwnQuota(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  return json(200, quotaView(await tenantQuota(ctx.deps, tenantOf(event))));
}

export const quotaRoutes = {
  'GET /v1/quota': { handle: getOwnQuota },
  'PUT /v1/admin/tenants/{tenantId}/quota': { handle: putTenantQuota },
  'GET /v1/admin/tenants/{tenantId}/quota': { handle: getTenantQuota },
} as const satisfies Routes;

export const quotaOpenApi = (): OpenApiGroup<keyof typeof quotaRoutes> => {
  const tenantIdDoc = pathParameterDoc(tenantIdParameter, 'The tenant the quota is for');
  const quotaResponse = (description: string) => ({
    description,
    content: jsonContent(ref('TenantQuota')),
  });
  return {
    tag: {
      name: 'Quotas',
      description:
        'What a tenant may run at once; a lease over its quota waits in the admission queue instead of being refused',
    },
    schemas: {
      QuotaRequest: jsonSchema(quotaBodySchema),
      TenantQuota: responseObject({
        tenantId: { type: 'string' },
        quota: jsonSchema(quotaBodySchema, 'output'),
        isDefault: {
          type: 'boolean',
          description: 'True when no admin set a quota for the tenant: the configured default applies',
        },
        usage: responseObject(
          {
            gpus: { type: 'integer', description: 'GPUs admitted and not released' },
            hourlyUsd: { type: 'number', description: 'Sum of the hourly prices of what was admitted' },
            gpusByMode: {
              type: 'object',
              additionalProperties: { type: 'integer' },
              description: 'GPUs by rental mode',
            },
          },
          [],
          { description: 'What the tenant runs now, as its quota counts it' },
        ),
      }),
    },
    operations: {
      'GET /v1/quota': {
        operationId: 'getQuota',
        summary: "The caller's quota in force and its use",
        description:
          "The tenant's own quota (or the default when an admin set none), and the GPUs and hourly spend it has admitted now.",
        responses: { '200': quotaResponse('The quota and its use'), ...authErrors },
      },
      'PUT /v1/admin/tenants/{tenantId}/quota': {
        operationId: 'putTenantQuota',
        summary: "Admin: set a tenant's quota",
        description:
          'Concurrent GPUs, the sum of hourly prices, optional caps per rental mode and the weight in fair share. Leases that would exceed it wait in the queue. Nothing is stored on a 400.',
        parameters: [tenantIdDoc],
        requestBody: { required: true, content: jsonContent(ref('QuotaRequest')) },
        responses: {
          '200': quotaResponse('The quota now in force and its use'),
          '400': errorResponse('VALIDATION_FAILED, INVALID_JSON, BODY_REQUIRED or INVALID_TENANT_ID'),
          ...adminErrors,
        },
      },
      'GET /v1/admin/tenants/{tenantId}/quota': {
        operationId: 'getTenantQuota',
        summary: "Admin: a tenant's quota in force and its use",
        description: "The tenant's own quota, or the default when none is set, and what it runs now.",
        parameters: [tenantIdDoc],
        responses: {
          '200': quotaResponse('The quota and its use'),
          '400': errorResponse('INVALID_TENANT_ID'),
          ...adminErrors,
        },
      },
    },
  };
};
