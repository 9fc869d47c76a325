// The committed document, not functions/api/openapi.ts: building it (z.toJSONSchema over the request
// schemas) at every cold start cost load time for a route few call. A unit test keeps the two equal.
import openApiDocument from '../../../docs/openapi.json';
import { type ApiResult, json } from '../http';
import { jsonContent, type OpenApiGroup, responseObject } from '../openapi-parts';
import type { Routes } from '../routing';

export async function health(): Promise<ApiResult> {
  return json(200, { status: 'ok' });
}

export async function openApi(): Promise<ApiResult> {
  return json(200, openApiDocument);
}

export const metaRoutes = {
  'GET /v1/health': {
    handle: health,
    publicBecause: 'load balancers and uptime checks call it without credentials; it returns only a status',
  },
  'GET /v1/openapi.json': {
    handle: openApi,
    publicBecause: 'the API description is public documentation and contains no tenant data',
  },
} as const satisfies Routes;

export const metaOpenApi = (): OpenApiGroup<keyof typeof metaRoutes> => ({
  tag: { name: 'Meta', description: 'Liveness and this document; neither needs a token' },
  operations: {
    'GET /v1/health': {
      operationId: 'getHealth',
      summary: 'Liveness',
      description: 'Answers `{"status": "ok"}` while the API runs; for load balancers and uptime checks.',
      responses: {
        '200': {
          description: 'Up',
          content: jsonContent(responseObject({ status: { type: 'string', enum: ['ok'] } })),
        },
      },
    },
    'GET /v1/openapi.json': {
      operationId: 'getOpenApiDocument',
      summary: 'This document',
      description: 'The OpenAPI 3.1 description of the API, as committed in docs/openapi.json.',
      responses: {
        '200': {
          description: 'OpenAPI 3.1',
          content: jsonContent(
            responseObject(
              {
                openapi: { type: 'string', pattern: '^3\\.1\\.' },
                info: { type: 'object' },
                paths: { type: 'object' },
                components: { type: 'object' },
              },
              [],
              { description: 'An OpenAPI 3.1 document (https://spec.openapis.org/oas/v3.1.0)' },
            ),
          ),
        },
      },
    },
  },
});
