import { type ApiResult, json } from '../http';
import { openApiDocument } from '../openapi';

export async function health(): Promise<ApiResult> {
  return json(200, { status: 'ok' });
}

export async function openApi(): Promise<ApiResult> {
  return json(200, openApiDocument);
}
