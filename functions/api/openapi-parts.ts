/** Building blocks of the OpenAPI document, shared by its route groups. */
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const jsonContent = (schema: object) => ({ 'application/json': { schema } });
export const errorResponse = (description: string) => ({ description, content: jsonContent(ref('Error')) });
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
export const leaseIdParameter = {
  name: 'id',
  in: 'path',
  required: true,
  schema: { type: 'string', pattern: '^lease_[0-9a-hjkmnp-tv-z]{26}$' },
};
export const authErrors = {
  '401': errorResponse('Missing or invalid bearer token'),
  '403': errorResponse('The token has no tenant claim (TENANT_CLAIM_MISSING)'),
};
export const adminErrors = {
  '401': errorResponse('Missing or invalid bearer token'),
  '403': errorResponse('ADMIN_REQUIRED: the token is not in the admin group'),
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
