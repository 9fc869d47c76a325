// The committed document, not functions/api/openapi.ts: building it (z.toJSONSchema over the request
// schemas) at every cold start cost load time for a route few call. A unit test keeps the two equal.
import openApiDocument from '../../../docs/openapi.json';
import { type ApiResult, json } from '../http';

export async function health(): Promise<ApiResult> {
  return json(200, { status: 'ok' });
}

export async function openApi(): Promise<ApiResult> {
  return json(200, openApiDocument);
}
