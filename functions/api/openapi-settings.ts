import * as z from '../../shared/zod';
import { authErrors, errorResponse, jsonContent, ref } from './openapi-parts';
import { putSettingsBody } from './routes/settings';

export const settingsSchemas = {
  TenantSettings: z.toJSONSchema(putSettingsBody, { target: 'draft-2020-12', io: 'output' }),
};

export const settingsPaths = {
  '/v1/settings': {
    get: {
      summary: "The tenant's settings",
      responses: {
        '200': { description: 'Settings', content: jsonContent(ref('TenantSettings')) },
        ...authErrors,
      },
    },
    put: {
      summary: "Replace the tenant's settings (the default lease lifetime)",
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
};
