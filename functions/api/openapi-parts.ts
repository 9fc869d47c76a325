import { BILLING_DIMENSIONS } from '../../shared/domain/spend';
import * as z from '../../shared/zod';
import type { PathParameter } from './path';
import { MAX_HISTORY_RANGE_DAYS } from './range';

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

/**
 * A zod schema as JSON Schema 2020-12, the dialect of OpenAPI 3.1. A request
 * schema ('input') says its defaults in words, not as `default`: generators
 * such as openapi-typescript (by default) type a field with a `default` as
 * always present, which would make the client send every defaulted field.
 */
export const jsonSchema = (schema: z.core.$ZodType, io: 'input' | 'output' = 'input') => {
  const document = z.toJSONSchema(schema, { target: 'draft-2020-12', io });
  return io === 'input' ? (defaultsInWords(document) as typeof document) : document;
};

/** The schema with every `default` moved into its description. */
export function defaultsInWords(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(defaultsInWords);
  if (typeof schema !== 'object' || schema === null) return schema;
  const { default: fallback, ...rest } = schema as Record<string, unknown>;
  const walked = Object.fromEntries(
    Object.entries(rest).map(([key, value]) => [key, defaultsInWords(value)]),
  );
  if (fallback === undefined) return walked;
  const said = `Default: ${JSON.stringify(fallback)}.`;
  const description = typeof rest.description === 'string' ? `${rest.description}. ${said}` : said;
  return { ...walked, description };
}

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

/**
 * An object schema of a response: every property is always sent except those
 * named optional (a builder leaves them out when it has no value), so a
 * generated client types what it can count on as present.
 */
export const responseObject = (
  properties: Readonly<Record<string, object>>,
  optional: readonly string[] = [],
  extra: Readonly<Record<string, unknown>> = {},
) => ({
  type: 'object',
  ...extra,
  required: Object.keys(properties).filter((name) => !optional.includes(name)),
  properties,
});

/** The body API Gateway itself answers with (401 from its JWT authorizer, 404 for an unknown path). */
export const gatewayErrorSchema = /* @__PURE__ */ responseObject({ message: { type: 'string' } }, [], {
  description:
    'Sent by API Gateway, not by the API: `{"message": "Unauthorized"}` (401) when the bearer token is missing or invalid, `{"message": "Not Found"}` (404) for a path no route matches',
});
/** The envelope of every error the API itself answers with. */
export const errorSchema = /* @__PURE__ */ responseObject({
  error: /* @__PURE__ */ responseObject({
    code: { type: 'string', description: 'Stable machine-readable code, e.g. VALIDATION_FAILED' },
    message: { type: 'string', description: 'What is wrong and how to fix it' },
    details: {
      type: 'array',
      items: /* @__PURE__ */ responseObject({ path: { type: 'string' }, message: { type: 'string' } }),
    },
  }),
});
/** Every operation that needs a token may be refused by the gateway's JWT authorizer. */
export const unauthorizedResponse = {
  description: 'Missing or invalid bearer token (answered by API Gateway)',
  content: /* @__PURE__ */ jsonContent(/* @__PURE__ */ ref('GatewayError')),
};
export const usd = { type: 'number', description: 'USD, rounded to the micro-dollar' };
export const micro = { type: 'integer', description: 'Exact amount in micro-dollars (1 USD = 1,000,000)' };

/** Micro-dollars by billing dimension: compute, storage (instances' volumes), transfer (data moved between regions). */
export const microByDimension = (description: string) =>
  responseObject(Object.fromEntries(BILLING_DIMENSIONS.map((dimension) => [dimension, micro])), [], {
    description,
  });
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
/** What the routes that read the leases of a range (not daily rollups) say of its limit. */
export const historyRangeNote = `The range (from/to) may span at most ${MAX_HISTORY_RANGE_DAYS} days (400 VALIDATION_FAILED naming \`to\` past it); without them it is this month so far. A longer period is several requests.`;
// 401 is added to every protected operation when the document is assembled (openapi.ts).
export const authErrors = {
  '403': /* @__PURE__ */ errorResponse('The token has no tenant claim (TENANT_CLAIM_MISSING)'),
};
export const adminErrors = {
  '403': /* @__PURE__ */ errorResponse('ADMIN_REQUIRED: the token is not in the admin group'),
};
/** `limit` and `cursor`, as every paged list takes them. */
export const pageParameters = [
  {
    name: 'limit',
    in: 'query',
    schema: { type: 'integer', minimum: 1, maximum: 100 },
    description: 'Page size; default: 25',
  },
  {
    name: 'cursor',
    in: 'query',
    schema: { type: 'string' },
    description: 'nextCursor of the previous page',
  },
];
/** GPU utilization over a stretch of time, from the CloudWatch agent's samples. */
export const utilizationSchema = /* @__PURE__ */ responseObject(
  {
    percent: { type: ['number', 'null'], minimum: 0, maximum: 100 },
    telemetry: { type: 'string', enum: ['complete', 'partial', 'none'] },
    measuredGpuHours: { type: 'number', description: 'GPU-hours the samples cover' },
    gpusWithoutTelemetry: { type: 'integer', description: 'GPUs that ran and sent no sample' },
  },
  [],
  {
    description:
      'The average of every per-minute utilization sample of every GPU (each GPU-minute weighs the same); percent is null and telemetry "none" when no GPU sent a sample: no telemetry, never 0%',
  },
);
