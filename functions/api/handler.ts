import { IdempotencyConfig, makeIdempotent } from '@aws-lambda-powertools/idempotency';
import type { Context } from 'aws-lambda';
import { ClientError } from '../../shared/client-error';
import { logger, metrics, observed } from '../../shared/lambda/observability';
import { buildPorts } from '../../shared/lambda/port-factory';
import { RateLimitedError } from '../../shared/limit-errors';
import { METRIC_NAMES } from '../../shared/metric-names';
import { admitRequest, type FullSeconds, limitsCache } from '../../shared/usecases/tenant-limits';
import { assertBelowWaitingLeasesCap } from '../../shared/usecases/waiting-leases';
import { apiErrors } from './error-handler';
import { type ApiEvent, type ApiResult, tenantOf } from './http';
import { type IndexedRouteKey, ROUTE_GROUPS, ROUTE_INDEX } from './route-index';
import type { ApiContext, ApiDeps } from './routes/context';
import type { RouteDeclaration } from './routing';
import { apiWiring } from './wiring';

/*
 * The use cases behind the context are imported on first call, like the routes
 * (route-index.ts): a cold start loads only what every request needs.
 */
const createLeaseModule = () => import('../../shared/usecases/create-lease');
const leaseShapeModule = () => import('../../shared/usecases/lease-shape');
const releaseLeaseModule = () => import('../../shared/usecases/release-lease');
const scalingGroupsModule = () => import('../../shared/usecases/scaling-groups');
const leaseMetricsModule = () => import('../../shared/usecases/lease-metrics');

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
      // Behind the key: a retry of a lease already created gets it back even at the cap.
      // Members of scaling groups are not counted against it here: each group's max bounds them.
      await assertBelowWaitingLeasesCap(deps, input.tenantId, await limits.get(input.tenantId));
      const [{ assertModeCanBeHad }, { createLease }] = await Promise.all([
        leaseShapeModule(),
        createLeaseModule(),
      ]);
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
  releaseLease: async (tenantId, leaseId) =>
    (await releaseLeaseModule()).requestRelease(deps, tenantId, leaseId),
  scaling: {
    putGroup: async (tenantId, name, spec) =>
      (await scalingGroupsModule()).putScalingGroup(
        scalingDeps,
        tenantId,
        name,
        spec,
        await limits.get(tenantId),
      ),
    getGroup: async (tenantId, name) =>
      (await scalingGroupsModule()).getScalingGroup(scalingDeps, tenantId, name),
    listGroups: (tenantId) => scalingDeps.groups.list(tenantId),
    deleteGroup: async (tenantId, name) =>
      (await scalingGroupsModule()).deleteScalingGroup(scalingDeps, tenantId, name),
    leaseMetrics: async (tenantId, leaseId, window) =>
      (await leaseMetricsModule()).readLeaseGpuMetrics(
        scalingDeps,
        tenantId,
        leaseId,
        window,
        temperatureLimitC,
      ),
  },
  limits,
};

/** The seconds this instance found full, by tenant: the rest of such a second is refused without a write. */
const fullSeconds: FullSeconds = new Map();

/**
 * Every tenant route counts against the tenant's rate (one conditional write)
 * before it runs. Should the counter itself fail, the request goes on: the
 * limit keeps tenants from slowing each other, and must not stop them all.
 */
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
  if (!Object.hasOwn(ROUTE_INDEX, event.routeKey)) {
    throw new ClientError(404, 'ROUTE_NOT_FOUND', `No route ${event.routeKey}; see GET /v1/openapi.json`);
  }
  // The route's group is imported on the first request it serves (route-index.ts).
  const routes = await ROUTE_GROUPS[ROUTE_INDEX[event.routeKey as IndexedRouteKey]]();
  const route = routes[event.routeKey] as RouteDeclaration;
  if (route.publicBecause === undefined) await admitTenantRequest(event);
  return route.handle(event, context);
}).use(apiErrors());
