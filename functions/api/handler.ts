import { IdempotencyConfig, makeIdempotent } from '@aws-lambda-powertools/idempotency';
import type { Context } from 'aws-lambda';
import { metrics, observed } from '../../shared/lambda/observability';
import { buildPorts } from '../../shared/lambda/port-factory';
import { createLease } from '../../shared/usecases/create-lease';
import { readLeaseGpuMetrics } from '../../shared/usecases/lease-metrics';
import { requestRelease } from '../../shared/usecases/release-lease';
import { deleteScalingGroup, getScalingGroup, putScalingGroup } from '../../shared/usecases/scaling-groups';
import { apiErrors } from './error-handler';
import { toApiError } from './errors';
import { ApiError, type ApiEvent, type ApiResult } from './http';
import type { RouteKey } from './route-keys';
import { getAudit, getAuditReport } from './routes/audit';
import { deleteBudget, getBudget, listAllBudgets, listBudgets, putBudgetRoute } from './routes/budgets';
import type { ApiContext, ApiDeps } from './routes/context';
import { getImage, listImages, promoteImage, putImageVersion, rollbackImageVersion } from './routes/images';
import { getLeaseMetrics } from './routes/lease-metrics';
import { deleteLease, getLease, listLeases, postLease } from './routes/leases';
import { health, openApi } from './routes/meta';
import { listPools } from './routes/pools';
import { getProfile } from './routes/profile';
import { deleteReservation, getReservation, listReservations, putReservation } from './routes/reservations';
import * as scalingGroupRoutes from './routes/scaling-groups';
import { getSettings, putSettings } from './routes/settings';
import { exportUsage, getUsage } from './routes/usage';
import { apiWiring } from './wiring';

const { idempotency: persistenceStore, api, groups, temperatureLimitC, ...ports } = buildPorts(apiWiring);
const deps: ApiDeps = ports;
const scalingDeps = { ...deps, groups };

const idempotency = new IdempotencyConfig({
  eventKeyJmesPath: '[tenantId, idempotencyKey]',
  payloadValidationJmesPath: 'request',
  expiresAfterSeconds: api.idempotencyTtlSeconds,
});

const context: ApiContext = {
  deps,
  createLeaseOnce: makeIdempotent(
    async (input: Parameters<ApiContext['createLeaseOnce']>[0]) => {
      const lease = await createLease(deps, input.request, api.defaultInstanceType);
      // Only what the response needs is remembered with the key.
      return { leaseId: lease.leaseId, status: lease.status };
    },
    { persistenceStore, config: idempotency },
  ),
  releaseLease: (tenantId, leaseId) => requestRelease(deps, tenantId, leaseId),
  scaling: {
    putGroup: (tenantId, name, spec) => putScalingGroup(scalingDeps, tenantId, name, spec),
    getGroup: (tenantId, name) => getScalingGroup(scalingDeps, tenantId, name),
    listGroups: (tenantId) => scalingDeps.groups.list(tenantId),
    deleteGroup: (tenantId, name) => deleteScalingGroup(scalingDeps, tenantId, name),
    leaseMetrics: (tenantId, leaseId, window) =>
      readLeaseGpuMetrics(scalingDeps, tenantId, leaseId, window, temperatureLimitC),
  },
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
  'GET /v1/budgets': listBudgets,
  'PUT /v1/budgets/{name}': putBudgetRoute,
  'GET /v1/budgets/{name}': getBudget,
  'DELETE /v1/budgets/{name}': deleteBudget,
  'GET /v1/admin/budgets': listAllBudgets,
  'GET /v1/profile': getProfile,
  'GET /v1/leases/{id}/metrics': getLeaseMetrics,
  'GET /v1/scaling-groups': scalingGroupRoutes.listScalingGroups,
  'PUT /v1/scaling-groups/{name}': scalingGroupRoutes.putScalingGroup,
  'GET /v1/scaling-groups/{name}': scalingGroupRoutes.getScalingGroup,
  'DELETE /v1/scaling-groups/{name}': scalingGroupRoutes.deleteScalingGroup,
  'GET /v1/audit/{month}': getAudit,
  'GET /v1/audit/{month}/report.html': getAuditReport,
  'GET /v1/settings': getSettings,
  'PUT /v1/settings': putSettings,
  'GET /v1/pools': listPools,
  'GET /v1/admin/reservations': listReservations,
  'PUT /v1/admin/reservations/{id}': putReservation,
  'GET /v1/admin/reservations/{id}': getReservation,
  'DELETE /v1/admin/reservations/{id}': deleteReservation,
  'PUT /v1/admin/images/{name}/versions/{version}': putImageVersion,
  'POST /v1/admin/images/{name}/versions/{version}/promote': promoteImage,
  'POST /v1/admin/images/{name}/rollback': rollbackImageVersion,
  'GET /v1/admin/images': listImages,
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
