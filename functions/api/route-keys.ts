import { auditRoutes } from './routes/audit';
import { budgetRoutes } from './routes/budgets';
import { idlePolicyRoutes } from './routes/idle-policy';
import { imageRoutes } from './routes/images';
import { leaseLogRoutes } from './routes/lease-logs';
import { leaseMetricsRoutes } from './routes/lease-metrics';
import { leaseSessionRoutes } from './routes/lease-session';
import { leaseRoutes } from './routes/leases';
import { limitRoutes } from './routes/limits';
import { metaRoutes } from './routes/meta';
import { poolRoutes } from './routes/pools';
import { profileRoutes } from './routes/profile';
import { quotaRoutes } from './routes/quota';
import { reservationRoutes } from './routes/reservations';
import { scalingGroupRoutes } from './routes/scaling-groups';
import { settingsRoutes } from './routes/settings';
import { spendAnomalyRoutes } from './routes/spend-anomalies';
import { usageRoutes } from './routes/usage';
import { warmPoolRoutes } from './routes/warm-pools';
import { mergeRoutes, type RouteDeclaration } from './routing';

/**
 * Every route of the API, as the route groups in routes/ declare them. The
 * handler's route table, the CDK API construct, the local gateway and the
 * OpenAPI document all follow this table.
 */
export const ROUTE_TABLE = mergeRoutes(
  metaRoutes,
  leaseRoutes,
  leaseMetricsRoutes,
  leaseLogRoutes,
  leaseSessionRoutes,
  usageRoutes,
  profileRoutes,
  budgetRoutes,
  scalingGroupRoutes,
  auditRoutes,
  settingsRoutes,
  poolRoutes,
  reservationRoutes,
  imageRoutes,
  idlePolicyRoutes,
  spendAnomalyRoutes,
  warmPoolRoutes,
  quotaRoutes,
  limitRoutes,
);

export type RouteKey = keyof typeof ROUTE_TABLE;

/** The routes as API Gateway route keys; `publicBecause` only on the routes that need no token. */
export const API_ROUTES: ReadonlyArray<{ readonly key: RouteKey; readonly publicBecause?: string }> =
  Object.entries(ROUTE_TABLE).map(([key, route]: [string, RouteDeclaration]) => ({
    key: key as RouteKey,
    ...(route.publicBecause === undefined ? {} : { publicBecause: route.publicBecause }),
  }));

export const isPublicRoute = (route: (typeof API_ROUTES)[number]): boolean => 'publicBecause' in route;
