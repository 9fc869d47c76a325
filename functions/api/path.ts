import { ClientError } from '../../shared/client-error';
import { TENANT_ID, TENANT_ID_RULE } from '../../shared/ids';
import * as z from '../../shared/zod';
import type { ApiEvent } from './http';

/** A path parameter: its schema, and the 400 (code, message) a value outside it is answered with. */
export interface PathParameter {
  readonly name: string;
  readonly schema: z.ZodMiniType<string, string>;
  readonly code: string;
  readonly problem: (value: string) => string;
}

export const pathParameter = (
  name: string,
  pattern: RegExp,
  code: string,
  problem: (value: string) => string,
): PathParameter => ({ name, schema: z.string().check(z.regex(pattern)), code, problem });

/**
 * A path segment as the client meant it. The HTTP API hands path parameters on
 * still percent-encoded, so a malformed escape (`%ZZ`) reaches the function and
 * is the client's mistake, a 400, never a failure of ours.
 */
export function rawPathValue(event: ApiEvent, name: string): string {
  const raw = event.pathParameters?.[name] ?? '';
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new ClientError(
      400,
      'INVALID_PATH',
      `The path segment "${raw}" is not valid percent-encoding (UTF-8 bytes as %XX)`,
      name,
    );
  }
}

/** The parameter's value from the path, or the parameter's own 400. */
export function pathValue(event: ApiEvent, parameter: PathParameter): string {
  const value = rawPathValue(event, parameter.name);
  if (!z.safeParse(parameter.schema, value).success) {
    throw new ClientError(400, parameter.code, parameter.problem(value));
  }
  return value;
}

/** `{tenantId}` of the admin routes about one tenant (idle policy, quota). */
export const tenantIdParameter = pathParameter(
  'tenantId',
  TENANT_ID,
  'INVALID_TENANT_ID',
  (id) => `"${id}" is not a tenant id: it ${TENANT_ID_RULE}`,
);
