import { IdempotencyConfig, makeIdempotent } from '@aws-lambda-powertools/idempotency';
import type { Context } from 'aws-lambda';
import { ClientError } from '../../shared/client-error';
import { logger, metrics, observed } from '../../shared/lambda/observability';
import { buildPorts } from '../../shared/lambda/port-factory';
import { RateLimitedError } from '../../shared/limit-errors';
import { METRIC_NAMES } from '../../shared/metric-names';
import { createLease } from '../../shared/usecases/create-lease';
import { readLeaseGpuMetrics } from '../../shared/usecases/lease-metrics';
import { assertModeCanBeHad } from '../../shared/usecases/lease-shape';
import { requestRelease } from '../../shared/usecases/release-lease';
import { deleteScalingGroup, getScalingGroup, putScalingGroup } from '../../shared/usecases/scaling-groups';
import { admitRequest, type FullSeconds, limitsCache } from '../../shared/usecases/tenant-limits';
import { apiErrors } from './error-handler';
import { type ApiEvent, type ApiResult, tenantOf } from './http';
import { ROUTE_TABLE, type RouteKey } from './route-keys';
import type { ApiContext, ApiDeps } from './routes/context';
import type { RouteDeclaration } from './routing';
import { apiWiring } from './wiring';

const {
  idempotency: persistenceStore,
  api,
  groups,
  temperatureLimitC,
  requests,
  ...ports
} = buildPorts(apiWiring);
const deps: ApiDeps = ports;
const scalingDeps = { ...deps, groups };
const limits = limitsCache(deps);

const idempotency = new IdempotencyConfig({
  eventKeyJmesPath: '[tenantId, idempotencyKey]',
  payloadValidationJmesPath: 'request',
  expiresAfterSeconds: api.idempotencyTtlSeconds,
});

const context: ApiContext = {
  deps,
  createLeaseOnce: makeIdempotent(
    async (input: Parameters<ApiContext['createLeaseOnce']>[0]) => {
      await assertModeCanBeHad(deps, input.request, api.defaultInstanceType);
      const lease = await createLease(deps, input.request, api.defaultInstanceType);
      if (lease.eventsLost) {
        logger.error('LeaseRequested not published; the lease goes on', {
          leaseId: lease.leaseId,
          error: lease.eventsLost,
        });
        metrics.addMetric(METRIC_NAMES.domainEventsLost, 'Count', 1);
      }
      // Only what the response needs is remembered with the key.
      return { leaseId: lease.leaseId, status: lease.status };
    },
    { persistenceStore, config: idempotency },
  ),
  releaseLease: (tenantId, leaseId) => requestRelease(deps, tenantId, leaseId),
  scaling: {
    putGroup: async (tenantId, name, spec) =>
      putScalingGroup(scalingDeps, tenantId, name, spec, await limits.get(tenantId)),
    getGroup: (tenantId, name) => getScalingGroup(scalingDeps, tenantId, name),
    listGroups: (tenantId) => scalingDeps.groups.list(tenantId),
    deleteGroup: (tenantId, name) => deleteScalingGroup(scalingDeps, tenantId, name),
    leaseMetrics: (tenantId, leaseId, window) =>
      readLeaseGpuMetrics(scalingDeps, tenantId, leaseId, window, temperatureLimitC),
  },
  limits,
};

/**
 * Every tenant route counts against the tenant's rate (one conditional write)
 * before it runs. Should the counter itself fail, the request goes on: the
 * limit keeps tenants from slowing each other, and must not stop them all.
 */
const fullSeconds: FullSeconds = new Map();

async function admitTenantRequest(event: ApiEvent): Promise<void> {
  const tenantId = tenantOf(event);
  try {
    await admitRequest({ requests, now: deps.now, full: fullSeconds }, tenantId, await limits.get(tenantId));
  } catch (error) {
    if (error instanceof RateLimitedError) throw error;
    logger.warn('Rate limit not applied: the request counter failed', { tenantId, error: error as Error });
  }
}

export const handler = observed(async (event: ApiEvent, lambdaContext: Context): Promise<ApiResult> => {
  idempotency.registerLambdaContext(lambdaContext);
  metrics.addMetric('ApiRequests', 'Count', 1);
  if (!Object.hasOwn(ROUTE_TABLE, event.routeKey)) {
    throw new ClientError(404, 'ROUTE_NOT_FOUND', `No route ${event.routeKey}; see GET /v1/openapi.json`);
  }
  const route: RouteDeclaration = ROUTE_TABLE[event.routeKey as RouteKey];
  if (route.publicBecause === undefined) await admitTenantRequest(event);
  return route.handle(event, context);
}).use(apiErrors());
