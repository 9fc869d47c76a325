import {
  defaultsInWords,
  errorSchema,
  gatewayErrorSchema,
  jsonContent,
  type OpenApiGroup,
  type Operation,
  ref,
  unauthorizedResponse,
} from './openapi-parts';
import { ROUTE_TABLE, type RouteKey } from './route-keys';
import { auditOpenApi } from './routes/audit';
import { budgetOpenApi } from './routes/budgets';
import { idlePolicyOpenApi } from './routes/idle-policy';
import { imageOpenApi } from './routes/images';
import { leaseLogOpenApi } from './routes/lease-logs';
import { leaseMetricsOpenApi } from './routes/lease-metrics';
import { leaseSessionOpenApi } from './routes/lease-session';
import { leaseOpenApi } from './routes/leases';
import { limitOpenApi } from './routes/limits';
import { metaOpenApi } from './routes/meta';
import { poolOpenApi } from './routes/pools';
import { profileOpenApi } from './routes/profile';
import { quotaOpenApi } from './routes/quota';
import { reservationOpenApi } from './routes/reservations';
import { scalingGroupOpenApi } from './routes/scaling-groups';
import { settingsOpenApi } from './routes/settings';
import { spendAnomalyOpenApi } from './routes/spend-anomalies';
import { usageOpenApi } from './routes/usage';
import { warmPoolOpenApi } from './routes/warm-pools';
import type { RouteDeclaration } from './routing';

/** Every route group; a test checks that together they document every route of ROUTE_TABLE. */
const groups: readonly OpenApiGroup<string>[] = [
  metaOpenApi(),
  leaseOpenApi(),
  leaseMetricsOpenApi(),
  leaseLogOpenApi(),
  leaseSessionOpenApi(),
  usageOpenApi(),
  profileOpenApi(),
  budgetOpenApi(),
  scalingGroupOpenApi(),
  auditOpenApi(),
  settingsOpenApi(),
  poolOpenApi(),
  reservationOpenApi(),
  imageOpenApi(),
  idlePolicyOpenApi(),
  spendAnomalyOpenApi(),
  warmPoolOpenApi(),
  quotaOpenApi(),
  limitOpenApi(),
];

/** Every tenant route counts against the tenant's requestsPerSecond (GET /v1/limits). */
const rateLimitedResponse = {
  description:
    'RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds',
  headers: {
    'Retry-After': { description: 'Seconds until the next window', schema: { type: 'integer', minimum: 1 } },
  },
  content: jsonContent(ref('Error')),
};

/**
 * A route that has its own reason to answer 429 (a cap that clears by itself)
 * documents it beside the rate limit's, with the same Retry-After.
 */
function tooManyRequestsResponse(own: object | undefined) {
  const description = (own as { readonly description?: string } | undefined)?.description;
  if (description === undefined) return rateLimitedResponse;
  return {
    ...rateLimitedResponse,
    description: `${rateLimitedResponse.description}; or ${description}`,
    headers: {
      'Retry-After': {
        description: 'Seconds to wait before asking again',
        schema: { type: 'integer', minimum: 1 },
      },
    },
  };
}

/**
 * Every route's operation, tagged with its group; a public route is marked as
 * needing no token, every other one documents the gateway's 401.
 */
type DocumentedOperation = Operation & { readonly tags: string[]; readonly security?: [] };

function paths(): Record<string, Record<string, DocumentedOperation>> {
  const byPath: Record<string, Record<string, DocumentedOperation>> = {};
  for (const group of groups) {
    for (const [key, operation] of Object.entries(group.operations) as [RouteKey, Operation][]) {
      const [method = '', path = ''] = key.split(' ');
      const route: RouteDeclaration = ROUTE_TABLE[key];
      const isPublic = route.publicBecause !== undefined;
      byPath[path] = {
        ...byPath[path],
        [method.toLowerCase()]: {
          tags: [group.tag.name],
          ...operation,
          ...(operation.parameters && {
            parameters: defaultsInWords(operation.parameters) as readonly object[],
          }),
          ...(isPublic
            ? { security: [] as [] }
            : {
                responses: {
                  ...operation.responses,
                  '401': unauthorizedResponse,
                  '429': tooManyRequestsResponse(operation.responses['429']),
                },
              }),
        },
      };
    }
  }
  return byPath;
}

/**
 * The API contract, assembled from the route groups in routes/ (their operations,
 * and schemas built from their validators); `npm run openapi` writes it to
 * docs/openapi.json, which GET /v1/openapi.json serves (a test keeps the two equal).
 */
export const openApiDocument = {
  openapi: '3.1.0',
  info: {
    title: 'gpurent API',
    version: '1.0.0',
    description:
      'Rent GPU capacity on AWS. Every route except health and this document needs `Authorization: Bearer <JWT>`; the tenant comes from the `custom:tenant` claim. Errors are `{error: {code, message, details}}`, except what API Gateway answers itself (GatewayError): 401 `{"message": "Unauthorized"}` for a missing or invalid token, 404 `{"message": "Not Found"}` for a path no route matches.',
    contact: { name: 'gpurent maintainers' },
    license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
  },
  servers: [{ url: '/' }],
  tags: groups.map((group) => group.tag),
  components: {
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
    schemas: {
      ...Object.assign({}, ...groups.map((group) => group.schemas ?? {})),
      Error: errorSchema,
      GatewayError: gatewayErrorSchema,
    } as Record<string, object>,
  },
  security: [{ bearer: [] }],
  paths: paths(),
};
