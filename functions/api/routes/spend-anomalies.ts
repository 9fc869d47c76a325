import { PROJECT_PATTERN } from '../../../shared/domain/budgets/budget';
import {
  ANOMALY_SENSITIVITIES,
  type SpendAnomalySettings,
  spendAnomalySettingsSchema,
} from '../../../shared/domain/waste/spend-anomaly';
import * as z from '../../../shared/zod';
import { type ApiEvent, type ApiResult, json, parseJsonBody, tenantOf, validate } from '../http';
import {
  authErrors,
  errorResponse,
  jsonContent,
  jsonSchema,
  type OpenApiGroup,
  ref,
  responseObject,
} from '../openapi-parts';
import type { Routes } from '../routing';
import type { ApiContext } from './context';

/** One scope's settings: the tenant's own (no project) or one project's, which then wins for it. */
export const putSpendAnomalySettingsBody = z.extend(spendAnomalySettingsSchema, {
  project: z.optional(
    z
      .string()
      .check(
        z.regex(PROJECT_PATTERN, 'must be 1-64 lowercase letters, digits or hyphens, such as team-vision'),
        z.describe("The project these settings are for; absent: the tenant's own"),
      ),
  ),
});

const DEFAULTS = spendAnomalySettingsSchema.parse({});

function viewOf(stored: Readonly<Record<string, SpendAnomalySettings>>) {
  const { '': tenant, ...projects } = stored;
  return { tenant: tenant ?? DEFAULTS, projects };
}

export async function getSpendAnomalySettings(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  return json(200, viewOf(await ctx.deps.anomalies.settings(tenantOf(event))));
}

/** Replaces one scope's settings; checked whole before anything is written. */
export async function putSpendAnomalySettings(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  const tenantId = tenantOf(event);
  const { project, ...settings } = validate(putSpendAnomalySettingsBody, parseJsonBody(event), 'body');
  await ctx.deps.anomalies.putSettings(tenantId, project, settings);
  return json(200, viewOf(await ctx.deps.anomalies.settings(tenantId)));
}

export const spendAnomalyRoutes = {
  'GET /v1/spend-anomaly-settings': { handle: getSpendAnomalySettings },
  'PUT /v1/spend-anomaly-settings': { handle: putSpendAnomalySettings },
} as const satisfies Routes;

export const spendAnomalyOpenApi = (): OpenApiGroup<keyof typeof spendAnomalyRoutes> => {
  const view = {
    description: "The tenant's own settings and each project's that has its own",
    content: jsonContent(ref('SpendAnomalySettingsView')),
  };
  return {
    tag: {
      name: 'Spend anomalies',
      description:
        'Each metering run compares the spend rate of the tenant and of each project with its seasonal baseline; a sustained excess sends one alert per episode to the budget alerts topic (kind: anomaly)',
    },
    schemas: {
      SpendAnomalySettingsRequest: jsonSchema(putSpendAnomalySettingsBody),
      SpendAnomalySettings: {
        ...jsonSchema(spendAnomalySettingsSchema, 'output'),
        description: `Sensitivity (${ANOMALY_SENSITIVITIES.join(', ')}: a lower line the higher it is) and whether anomalies are watched at all`,
      },
      SpendAnomalySettingsView: responseObject({
        tenant: ref('SpendAnomalySettings'),
        projects: { type: 'object', additionalProperties: ref('SpendAnomalySettings') },
      }),
    },
    operations: {
      'GET /v1/spend-anomaly-settings': {
        operationId: 'getSpendAnomalySettings',
        summary: "The tenant's spend-anomaly settings",
        description:
          "The tenant's own (medium and on when never set) and those of the projects that have their own; a project without its own follows the tenant's.",
        responses: { '200': view, ...authErrors },
      },
      'PUT /v1/spend-anomaly-settings': {
        operationId: 'putSpendAnomalySettings',
        summary: 'Set the sensitivity of spend-anomaly alerts, or turn them off, for the tenant or a project',
        description:
          'Replaces the settings of one scope (the tenant when project is absent). New tenants and projects are not alerted until a week of baseline exists.',
        requestBody: { required: true, content: jsonContent(ref('SpendAnomalySettingsRequest')) },
        responses: {
          '200': view,
          '400': errorResponse(
            'VALIDATION_FAILED (an unknown sensitivity, a non-boolean enabled, a bad project label, an unknown field), INVALID_JSON or BODY_REQUIRED',
          ),
          ...authErrors,
        },
      },
    },
  };
};
