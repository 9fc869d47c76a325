import { ClientError } from '../../../shared/client-error';
import { IDLE_ACTIONS, type IdlePolicy, idlePolicySchema } from '../../../shared/domain/waste/idle-policy';
import type { IdlePolicyScope } from '../../../shared/ports/idle';
import {
  type IdlePolicyView,
  idlePoliciesOf,
  putTenantIdlePolicy,
} from '../../../shared/usecases/idle/idle-policies';
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

const viewBody = (view: IdlePolicyView) => ({
  admin: view.admin ?? null,
  tenant: view.tenant ?? null,
  effective: view.effective ?? null,
});

const policyOf = (event: ApiEvent): IdlePolicy => validate(idlePolicySchema, parseJsonBody(event), 'body');

export async function getIdlePolicy(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  return json(200, viewBody(await idlePoliciesOf(ctx.deps, tenantOf(event))));
}

export async function putIdlePolicy(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  const tenantId = tenantOf(event);
  return json(200, viewBody(await putTenantIdlePolicy(ctx.deps, tenantId, policyOf(event))));
}

async function deleteScope(ctx: ApiContext, tenantId: string, scope: IdlePolicyScope): Promise<ApiResult> {
  if (!(await ctx.deps.idlePolicies.delete(tenantId, scope))) {
    throw new ClientError(404, 'IDLE_POLICY_NOT_FOUND', `Tenant ${tenantId} has no ${scope} idle policy`);
  }
  return { statusCode: 204 };
}

/** Removes the tenant's own policy only; an admin's stays in force. */
export const deleteIdlePolicy = (event: ApiEvent, ctx: ApiContext) =>
  deleteScope(ctx, tenantOf(event), 'tenant');

export async function getAdminIdlePolicy(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  requireAdmin(event);
  return json(200, viewBody(await idlePoliciesOf(ctx.deps, pathValue(event, tenantIdParameter))));
}

export async function putAdminIdlePolicy(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  requireAdmin(event);
  const tenantId = pathValue(event, tenantIdParameter);
  await ctx.deps.idlePolicies.put(tenantId, 'admin', policyOf(event));
  return json(200, viewBody(await idlePoliciesOf(ctx.deps, tenantId)));
}

export async function deleteAdminIdlePolicy(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  requireAdmin(event);
  return deleteScope(ctx, pathValue(event, tenantIdParameter), 'admin');
}

export const idlePolicyRoutes = {
  'GET /v1/idle-policy': { handle: getIdlePolicy },
  'PUT /v1/idle-policy': { handle: putIdlePolicy },
  'DELETE /v1/idle-policy': { handle: deleteIdlePolicy },
  'GET /v1/admin/tenants/{tenantId}/idle-policy': { handle: getAdminIdlePolicy },
  'PUT /v1/admin/tenants/{tenantId}/idle-policy': { handle: putAdminIdlePolicy },
  'DELETE /v1/admin/tenants/{tenantId}/idle-policy': { handle: deleteAdminIdlePolicy },
} as const satisfies Routes;

const VALIDATION =
  'VALIDATION_FAILED (belowPercent outside 0-100, forMinutes outside 10-1440 or not whole, an unknown action, workload or field), INVALID_JSON or BODY_REQUIRED';

export const idlePolicyOpenApi = (): OpenApiGroup<keyof typeof idlePolicyRoutes> => {
  const tenantParameter = pathParameterDoc(tenantIdParameter);
  const view = {
    description: 'The admin and tenant policies and the one in force',
    content: jsonContent(ref('IdlePolicies')),
  };
  const policy = { ...jsonSchema(idlePolicySchema, 'output'), description: 'An idle policy' };
  return {
    tag: { name: 'Idle policies', description: 'What happens to leases whose every GPU sits idle' },
    schemas: {
      IdlePolicyRequest: jsonSchema(idlePolicySchema),
      IdlePolicy: policy,
      IdlePolicies: responseObject({
        admin: { oneOf: [ref('IdlePolicy'), { type: 'null' }] },
        tenant: { oneOf: [ref('IdlePolicy'), { type: 'null' }] },
        effective: {
          oneOf: [ref('IdlePolicy'), { type: 'null' }],
          description: 'The stricter of the two, field by field; null: no policy, leases are never acted on',
        },
      }),
    },
    operations: {
      'GET /v1/idle-policy': {
        operationId: 'getIdlePolicy',
        summary: "The tenant's idle policy, the admin's, and the one in force",
        description: `A lease is idle when every GPU of it stayed below belowPercent for forMinutes; the policy then does one of ${IDLE_ACTIONS.join(', ')}.`,
        responses: { '200': view, ...authErrors },
      },
      'PUT /v1/idle-policy': {
        operationId: 'putIdlePolicy',
        summary: "Set the tenant's own idle policy (it may only tighten an admin's)",
        description:
          "Replaces the tenant's policy. A policy that would loosen the admin's (a lower line, a longer window, a milder action, more exemptions) is refused with 409 and nothing is stored.",
        requestBody: { required: true, content: jsonContent(ref('IdlePolicyRequest')) },
        responses: {
          '200': view,
          '400': errorResponse(VALIDATION),
          '409': errorResponse(
            "IDLE_POLICY_LOOSER_THAN_ADMIN: details name each field looser than the admin's",
          ),
          ...authErrors,
        },
      },
      'DELETE /v1/idle-policy': {
        operationId: 'deleteIdlePolicy',
        summary: "Remove the tenant's own idle policy (an admin's stays in force)",
        description: "Removes the tenant's policy; the admin's, if any, keeps applying.",
        responses: {
          '204': { description: 'Removed' },
          '404': errorResponse('IDLE_POLICY_NOT_FOUND'),
          ...authErrors,
        },
      },
      'GET /v1/admin/tenants/{tenantId}/idle-policy': {
        operationId: 'getAdminIdlePolicy',
        summary: "Admin: a tenant's idle policies and the one in force",
        description: "The admin's and the tenant's policy of the tenant, and the stricter of the two.",
        parameters: [tenantParameter],
        responses: { '200': view, '400': errorResponse('INVALID_TENANT_ID'), ...adminErrors },
      },
      'PUT /v1/admin/tenants/{tenantId}/idle-policy': {
        operationId: 'putAdminIdlePolicy',
        summary: "Admin: set a tenant's idle policy, which the tenant cannot loosen or remove",
        description:
          "Replaces the admin's policy of the tenant; the tenant's own applies only where it is stricter.",
        parameters: [tenantParameter],
        requestBody: { required: true, content: jsonContent(ref('IdlePolicyRequest')) },
        responses: { '200': view, '400': errorResponse(`${VALIDATION}, INVALID_TENANT_ID`), ...adminErrors },
      },
      'DELETE /v1/admin/tenants/{tenantId}/idle-policy': {
        operationId: 'deleteAdminIdlePolicy',
        summary: "Admin: remove a tenant's admin idle policy",
        description: "Removes the admin's policy; the tenant's own, if any, keeps applying.",
        parameters: [tenantParameter],
        responses: {
          '204': { description: 'Removed' },
          '400': errorResponse('INVALID_TENANT_ID'),
          '404': errorResponse('IDLE_POLICY_NOT_FOUND'),
          ...adminErrors,
        },
      },
    },
  };
};
