import { IdempotencyConfig, makeIdempotent } from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import type { Context } from 'aws-lambda';
import { CloudWatchMetricReader } from '../../shared/adapters/cloudwatch-metric-reader';
import { DynamoDbAuditStore } from '../../shared/adapters/dynamodb-audit-store';
import { DynamoDbBudgetRepository } from '../../shared/adapters/dynamodb-budget-repository';
import { DynamoDbScalingGroupRepository } from '../../shared/adapters/dynamodb-scaling-group-repository';
import { DynamoDbTenantSettings } from '../../shared/adapters/dynamodb-tenant-settings';
import { EventBridgePublisher } from '../../shared/adapters/eventbridge-publisher';
import { SpotTraceFiles } from '../../shared/adapters/spot-trace-files';
import { SqsLeaseCommandQueue } from '../../shared/adapters/sqs-lease-command-queue';
import { priceCatalog } from '../../shared/catalog';
import { ClientError } from '../../shared/client-error';
import { nonEmpty, readConfig } from '../../shared/config';
import { DEFAULT_GPU_TEMPERATURE_LIMIT_C } from '../../shared/domain/gpu-health';
import { spotDataConfig } from '../../shared/lambda/audit-config';
import {
  createCloudWatchClient,
  createEventBridgeClient,
  createSqsClient,
} from '../../shared/lambda/clients';
import { createLeaseExpiry, leaseExpiryConfig } from '../../shared/lambda/lease-expiry';
import { metrics, observed } from '../../shared/lambda/observability';
import { createPlacement, placementConfig } from '../../shared/lambda/placement';
import { createStores, storeConfig } from '../../shared/lambda/stores';
import { createLease } from '../../shared/usecases/create-lease';
import { readLeaseGpuMetrics } from '../../shared/usecases/lease-metrics';
import { requestRelease } from '../../shared/usecases/release-lease';
import { deleteScalingGroup, getScalingGroup, putScalingGroup } from '../../shared/usecases/scaling-groups';
import * as z from '../../shared/zod';
import { apiErrors } from './error-handler';
import type { ApiEvent, ApiResult } from './http';
import { ROUTE_TABLE, type RouteKey } from './route-keys';
import type { ApiContext, ApiDeps } from './routes/context';

const config = readConfig({
  ...storeConfig,
  BUDGETS_TABLE_NAME: nonEmpty,
  IDEMPOTENCY_TABLE_NAME: nonEmpty,
  LEASE_COMMANDS_QUEUE_URL: nonEmpty,
  EVENT_BUS_NAME: nonEmpty,
  DEFAULT_INSTANCE_TYPE: z._default(nonEmpty, 'g5.xlarge'),
  /** How long an Idempotency-Key is remembered. */
  IDEMPOTENCY_TTL_SECONDS: z._default(z.coerce.number().check(z.int(), z.positive()), 86_400),
  SCALING_GROUPS_TABLE_NAME: nonEmpty,
  /** A GPU hotter than this is reported unhealthy. */
  GPU_TEMPERATURE_LIMIT_C: z._default(
    z.coerce.number().check(z.gte(40), z.lte(120)),
    DEFAULT_GPU_TEMPERATURE_LIMIT_C,
  ),
  AUDITS_TABLE_NAME: nonEmpty,
  ...spotDataConfig,
  ...leaseExpiryConfig,
  // AWS_REGION (the home region) comes with the placement settings.
  ...placementConfig,
});
const { dynamoDb, documents, leases, ledger, spend, commitments, images, spotPrices } = createStores(config);
const { compute, placement } = createPlacement(config);
const deps: ApiDeps = {
  compute,
  placement,
  commitments,
  images,
  leases,
  ledger,
  spotPrices,
  spend,
  budgets: new DynamoDbBudgetRepository(documents, config.BUDGETS_TABLE_NAME),
  commands: new SqsLeaseCommandQueue(createSqsClient(), config.LEASE_COMMANDS_QUEUE_URL),
  events: new EventBridgePublisher(createEventBridgeClient(), config.EVENT_BUS_NAME),
  catalog: priceCatalog,
  region: config.AWS_REGION,
  // Read at each call (not captured), so tests can move the clock.
  now: () => Date.now(),
  audits: new DynamoDbAuditStore(documents, config.AUDITS_TABLE_NAME),
  spotTraces: new SpotTraceFiles(config.SPOT_DATA_DIR),
  expiry: createLeaseExpiry(config),
  settings: new DynamoDbTenantSettings(documents, config.LEASES_TABLE_NAME),
  metrics: new CloudWatchMetricReader(createCloudWatchClient()),
};

const scalingDeps = {
  ...deps,
  groups: new DynamoDbScalingGroupRepository(documents, config.SCALING_GROUPS_TABLE_NAME),
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
  scaling: {
    putGroup: (tenantId, name, spec) => putScalingGroup(scalingDeps, tenantId, name, spec),
    getGroup: (tenantId, name) => getScalingGroup(scalingDeps, tenantId, name),
    listGroups: (tenantId) => scalingDeps.groups.list(tenantId),
    deleteGroup: (tenantId, name) => deleteScalingGroup(scalingDeps, tenantId, name),
    leaseMetrics: (tenantId, leaseId, window) =>
      readLeaseGpuMetrics(scalingDeps, tenantId, leaseId, window, config.GPU_TEMPERATURE_LIMIT_C),
  },
};

export const handler = observed(async (event: ApiEvent, lambdaContext: Context): Promise<ApiResult> => {
  idempotency.registerLambdaContext(lambdaContext);
  metrics.addMetric('ApiRequests', 'Count', 1);
  if (!Object.hasOwn(ROUTE_TABLE, event.routeKey)) {
    throw new ClientError(404, 'ROUTE_NOT_FOUND', `No route ${event.routeKey}; see GET /v1/openapi.json`);
  }
  return ROUTE_TABLE[event.routeKey as RouteKey].handle(event, context);
}).use(apiErrors());
