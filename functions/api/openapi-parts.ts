import * as z from '../../shared/zod';
import type { PathParameter } from './path';

/*
 * Building blocks of the OpenAPI document, shared by its route groups. Only the
 * route groups' `…OpenApi` functions use them, which the api Lambda never calls:
 * its bundle drops them, so what they build must stay free of side effects
 * (calls at module level are marked pure).
 */

export interface Operation {
  readonly operationId: string;
  readonly summary: string;
  readonly description: string;
  readonly parameters?: readonly object[];
  readonly requestBody?: object;
  readonly responses: Readonly<Record<string, object>>;
}

/** A route group's part of the document: its tag, its component schemas and one operation per route. */
export interface OpenApiGroup<Key extends string> {
  readonly tag: { readonly name: string; readonly description: string };
  readonly schemas?: Readonly<Record<string, object>>;
  readonly operations: Readonly<Record<Key, Operation>>;
}

/** A zod schema as JSON Schema 2020-12, the dialect of OpenAPI 3.1. */
export const jsonSchema = (schema: z.core.$ZodType, io: 'input' | 'output' = 'input') =>
  z.toJSONSchema(schema, { target: 'draft-2020-12', io });

/** A path parameter documented from the schema that checks it. */
export function pathParameterDoc(parameter: PathParameter, description?: string) {
  const { $schema: _dialect, ...schema } = jsonSchema(parameter.schema);
  return { name: parameter.name, in: 'path', required: true, schema, ...(description && { description }) };
}

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const jsonContent = (schema: object) => ({ 'application/json': { schema } });
export const errorResponse = (description: string) => ({
  description,
  content: jsonContent(ref('Error')),
});
export const usd = { type: 'number', description: 'USD, rounded to the micro-dollar' };
export const micro = { type: 'integer', description: 'Exact amount in micro-dollars (1 USD = 1,000,000)' };
export const instant = { type: 'string', format: 'date-time' };
const dateOrInstant = { oneOf: [{ type: 'string', format: 'date' }, instant] };
export const rangeParameters = [
  {
    name: 'from',
    in: 'query',
    schema: dateOrInstant,
    description: 'Start (inclusive), a date or date-time; default: start of this month (UTC)',
  },
  {
    name: 'to',
    in: 'query',
    schema: dateOrInstant,
    description: 'End (exclusive), a date or date-time; default: now',
  },
];
export const authErrors = {
  '401': /* @__PURE__ */ errorResponse('Missing or invalid bearer token'),
  '403': /* @__PURE__ */ errorResponse('The token has no tenant claim (TENANT_CLAIM_MISSING)'),
};
export const adminErrors = {
  '401': /* @__PURE__ */ errorResponse('Missing or invalid bearer token'),
  '403': /* @__PURE__ */ errorResponse('ADMIN_REQUIRED: the token is not in the admin group'),
};
/** `limit` and `cursor`, as every paged list takes them. */
export const pageParameters = [
  { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 25 } },
  {
    name: 'cursor',
    in: 'query',
    schema: { type: 'string' },
    description: 'nextCursor of the previous page',
  },
];
/** GPU utilization over a stretch of time, from the CloudWatch agent's samples. */
export const utilizationSchema = {
  type: 'object',
  description:
    'The average of every per-minute utilization sample of every GPU (each GPU-minute weighs the same); percent is null and telemetry "none" when no GPU sent a sample: no telemetry, never 0%',
  properties: {
    percent: { type: ['number', 'null'], minimum: 0, maximum: 100 },
    telemetry: { type: 'string', enum: ['complete', 'partial', 'none'] },
    measuredGpuHours: { type: 'number', description: 'GPU-hours the samples cover' },
    gpusWithoutTelemetry: { type: 'integer', description: 'GPUs that ran and sent no sample' },
  },
};
