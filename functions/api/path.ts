import { ClientError } from '../../shared/client-error';
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

/** The parameter's value from the path, or the parameter's own 400. */
export function pathValue(event: ApiEvent, parameter: PathParameter): string {
  const value = event.pathParameters?.[parameter.name] ?? '';
  if (!z.safeParse(parameter.schema, value).success) {
    throw new ClientError(400, parameter.code, parameter.problem(value));
  }
  return value;
}
