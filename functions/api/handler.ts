import { IdempotencyConfig, makeIdempotent } from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import type { Context } from 'aws-lambda';
import { z } from 'zod';
import { EventBridgePublisher } from '../../shared/adapters/eventbridge-publisher';
import { SqsLeaseCommandQueue } from '../../shared/adapters/sqs-lease-command-queue';
import { priceCatalog } from '../../shared/catalog';
import { nonEmpty, readConfig } from '../../shared/config';
import { createEventBridgeClient, createSqsClient } from '../../shared/lambda/clients';
import { metrics, observed } from '../../shared/lambda/observability';
import { createPlacement, placementConfig } from '../../shared/lambda/placement';
import { createStores, storeConfig } from '../../shared/lambda/stores';
import { createLease } from '../../shared/usecases/create-lease';
import { requestRelease } from '../../shared/usecases/release-lease';
import { apiErrors } from './error-handler';
import { toApiError } from './errors';
import { ApiError, type ApiEvent, type ApiResult } from './http';
import type { RouteKey } from './route-keys';
import type { ApiContext, ApiDeps } from './routes/context';
import { getImage, promoteImage, putImageVersion, rollbackImageVersion } from './routes/images';
import { deleteLease, getLease, listLeases, postLease } from './routes/leases';
import { health, openApi } from './routes/meta';
import { listPools } from './routes/pools';
import { deleteReservation, getReservation, putReservation } from './routes/reservations';
import { exportUsage, getUsage } from './routes/usage';

const config = readConfig({
  ...storeConfig,
  IDEMPOTENCY_TABLE_NAME: nonEmpty,
  LEASE_COMMANDS_QUEUE_URL: nonEmpty,
  EVENT_BUS_NAME: nonEmpty,
  DEFAULT_INSTANCE_TYPE: nonEmpty.default('g5.xlarge'),
  /** How long an Idempotency-Key is remembered. */
  IDEMPOTENCY_TTL_SECONDS: z.coerce.number().int().positive().default(86_400),
  // AWS_REGION (the home region) comes with the placement settings.
  ...placementConfig,
});

const { dynamoDb, leases, ledger, commitments, images } = createStores(config);
const { compute, placement } = createPlacement(config);
const deps: ApiDeps = {
  compute,
  placement,
  commitments,
  images,
  leases,
  ledger,
  commands: new SqsLeaseCommandQueue(createSqsClient(), config.LEASE_COMMANDS_QUEUE_URL),
  events: new EventBridgePublisher(createEventBridgeClient(), config.EVENT_BUS_NAME),
  catalog: priceCatalog,
  region: config.AWS_REGION,
  now: Date.now,
};

const idempotency = new IdempotencyConfig({
  eventKeyJmesPath: '[tenantId, idempotencyKey]',
  payloadValidationJmesPath: 'request',
  expiresAfterSeconds: config.IDEMPOTENCY_TTL_SECONDS,
});

const context: ApiContext = {
  deps,
  createLeaseOnce: makeIdempotent(
    async (input: Parameters<ApiContext['createLeaseOnce']>[0]) => {
      const lease = await createLease(deps, input.request, config.DEFAULT_INSTANCE_TYPE);
      // Only what the response needs is remembered with the key.
      return { leaseId: lease.leaseId, status: lease.status };
    },
    {
      persistenceStore: new DynamoDBPersistenceLayer({
        tableName: config.IDEMPOTENCY_TABLE_NAME,
        awsSdkV3Client: dynamoDb,
      }),
      config: idempotency,
    },
  ),
  releaseLease: (tenantId, leaseId) => requestRelease(deps, tenantId, leaseId),
};

type Route = (event: ApiEvent, ctx: ApiContext) => Promise<ApiResult>;

/** Keyed by API Gateway's routeKey; the compiler holds it to the declared route list. */
const routes: Readonly<Record<RouteKey, Route>> = {
  'GET /v1/health': health,
  'GET /v1/openapi.json': openApi,
  'POST /v1/leases': postLease,
  'GET /v1/leases': listLeases,
  'GET /v1/leases/{id}': getLease,
  'DELETE /v1/leases/{id}': deleteLease,
  'GET /v1/usage': getUsage,
  'GET /v1/usage/export': exportUsage,
  'GET /v1/pools': listPools,
  'PUT /v1/admin/reservations/{id}': putReservation,
  'GET /v1/admin/reservations/{id}': getReservation,
  'DELETE /v1/admin/reservations/{id}': deleteReservation,
  'PUT /v1/admin/images/{name}/versions/{version}': putImageVersion,
  'POST /v1/admin/images/{name}/versions/{version}/promote': promoteImage,
  'POST /v1/admin/images/{name}/rollback': rollbackImageVersion,
  'GET /v1/admin/images/{name}': getImage,
};

export const handler = observed(async (event: ApiEvent, lambdaContext: Context): Promise<ApiResult> => {
  idempotency.registerLambdaContext(lambdaContext);
  metrics.addMetric('ApiRequests', 'Count', 1);
  const route = routes[event.routeKey as RouteKey];
  if (!route)
    throw new ApiError(404, 'ROUTE_NOT_FOUND', `No route ${event.routeKey}; see GET /v1/openapi.json`);
  return route(event, context);
}).use(apiErrors(toApiError));
