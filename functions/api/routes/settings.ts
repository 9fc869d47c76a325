import { leaseDurationMinutes } from '../../../shared/domain/lease-expiry';
import type { TenantSettings } from '../../../shared/ports/lease-expiry';
import * as z from '../../../shared/zod';
import { type ApiEvent, type ApiResult, json, parseJsonBody, tenantOf, validate } from '../http';
import { authErrors, errorResponse, jsonContent, jsonSchema, type OpenApiGroup, ref } from '../openapi-parts';
import type { Routes } from '../routing';
import type { ApiContext } from './context';

export const putSettingsBody = z.strictObject({
  defaultLeaseDurationMinutes: z
    .nullable(leaseDurationMinutes)
    .check(z.describe('Lifetime of leases that ask for none; null: they run until released')),
});

const settingsBody = (settings: TenantSettings) => ({
  defaultLeaseDurationMinutes: settings.defaultLeaseDurationMinutes ?? null,
});

export async function getSettings(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  return json(200, settingsBody(await ctx.deps.settings.get(tenantOf(event))));
}

/** Replaces the tenant's settings; leases created before keep their own expiry. */
export async function putSettings(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  const tenantId = tenantOf(event);
  const body = validate(putSettingsBody, parseJsonBody(event), 'body');
  const settings: TenantSettings = {
    defaultLeaseDurationMinutes: body.defaultLeaseDurationMinutes ?? undefined,
  };
  await ctx.deps.settings.put(tenantId, settings);
  return json(200, settingsBody(settings));
}

export const settingsRoutes = {
  'GET /v1/settings': { handle: getSettings },
  'PUT /v1/settings': { handle: putSettings },
} as const satisfies Routes;

export const settingsOpenApi = (): OpenApiGroup<keyof typeof settingsRoutes> => ({
  tag: { name: 'Settings', description: "The tenant's settings" },
  schemas: { TenantSettings: jsonSchema(putSettingsBody, 'output') },
  operations: {
    'GET /v1/settings': {
      operationId: 'getSettings',
      summary: "The tenant's settings",
      description: 'The settings in force: the lifetime of leases that ask for none.',
      responses: {
        '200': { description: 'Settings', content: jsonContent(ref('TenantSettings')) },
        ...authErrors,
      },
    },
    'PUT /v1/settings': {
      operationId: 'putSettings',
      summary: "Replace the tenant's settings (the default lease lifetime)",
      description: 'Replaces the settings; leases created before keep their own expiry.',
      requestBody: { required: true, content: jsonContent(ref('TenantSettings')) },
      responses: {
        '200': { description: 'The settings now in force', content: jsonContent(ref('TenantSettings')) },
        '400': errorResponse(
          'VALIDATION_FAILED (a lifetime outside 1-43200 minutes), INVALID_JSON or BODY_REQUIRED',
        ),
        ...authErrors,
      },
    },
  },
});
