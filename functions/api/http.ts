import type { APIGatewayProxyEventV2WithJWTAuthorizer, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { ClientError } from '../../shared/client-error';
import { TENANT_ID } from '../../shared/ids';
import { RetryLaterError } from '../../shared/limit-errors';
import * as z from '../../shared/zod';

export type ApiEvent = APIGatewayProxyEventV2WithJWTAuthorizer;
export type ApiResult = APIGatewayProxyStructuredResultV2;

export function json(statusCode: number, body: unknown, headers: Record<string, string> = {}): ApiResult {
  return {
    statusCode,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  };
}

/** A client error as the API answers it: its status and the `{error: {code, message, details}}` envelope. */
export const clientErrorResult = (error: ClientError): ApiResult =>
  json(
    error.status,
    { error: { code: error.code, message: error.message, details: error.details } },
    // A refusal that passes with time (a rate limit) says when to come back.
    error instanceof RetryLaterError ? { 'retry-after': String(error.retryAfterSeconds) } : {},
  );

/** Validates with zod; every problem is reported with its path so the caller can fix all at once. */
export function validate<Schema extends z.core.$ZodType>(
  schema: Schema,
  input: unknown,
  what: string,
): z.infer<Schema> {
  const result = z.safeParse(schema, input);
  if (result.success) return result.data;
  const details = result.error.issues.map((issue) => ({
    path: issue.path.join('.') || what,
    message: issue.message,
  }));
  throw new ClientError(
    400,
    'VALIDATION_FAILED',
    `Invalid ${what}: ${details.map((d) => `${d.path}: ${d.message}`).join('; ')}`,
    undefined,
    details,
  );
}

export function parseJsonBody(event: ApiEvent): unknown {
  if (!event.body) throw new ClientError(400, 'BODY_REQUIRED', 'The request needs a JSON body');
  const text = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  try {
    return JSON.parse(text);
  } catch {
    throw new ClientError(400, 'INVALID_JSON', 'The request body is not valid JSON');
  }
}

export const TENANT_CLAIM = 'custom:tenant';

/** The tenant comes only from the verified token's claims, never from the request. */
export function tenantOf(event: ApiEvent): string {
  const tenant = event.requestContext.authorizer?.jwt?.claims?.[TENANT_CLAIM];
  if (typeof tenant !== 'string' || !TENANT_ID.test(tenant)) {
    throw new ClientError(403, 'TENANT_CLAIM_MISSING', `The token carries no valid ${TENANT_CLAIM} claim`);
  }
  return tenant;
}

export const GROUPS_CLAIM = 'cognito:groups';
/** The user pool group whose members may call the /v1/admin routes. */
export const ADMIN_GROUP = 'admin';

/** Groups from the verified token: API Gateway renders a list claim as `[a b]`. */
function groupsOf(event: ApiEvent): string[] {
  const claim = event.requestContext.authorizer?.jwt?.claims?.[GROUPS_CLAIM];
  if (Array.isArray(claim)) return claim.map(String);
  if (typeof claim !== 'string') return [];
  return claim
    .replace(/^\[|\]$/g, '')
    .split(/[\s,]+/)
    .filter(Boolean);
}

/** Operator routes: the token's `cognito:groups` must hold `admin`. */
export function requireAdmin(event: ApiEvent): void {
  if (!groupsOf(event).includes(ADMIN_GROUP)) {
    throw new ClientError(
      403,
      'ADMIN_REQUIRED',
      `This route is for operators: the token's ${GROUPS_CLAIM} must include ${ADMIN_GROUP}`,
    );
  }
}
