import { leaseDurationMinutes } from '../../../shared/domain/lease-expiry';
import type { TenantSettings } from '../../../shared/ports/lease-expiry';
import * as z from '../../../shared/zod';
import { type ApiEvent, type ApiResult, json, parseJsonBody, tenantOf, validate } from '../http';
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
