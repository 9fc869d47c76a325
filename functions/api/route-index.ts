import type { RouteDeclaration } from './routing';

/*
 * The route table the handler serves from, without the routes' code: each
 * route group's module (routes/*) is imported on the first request one of its
 * routes serves. The function bundle is split (infra/constructs/lambda-bundling.ts),
 * so a cold start compiles the router and the shared ports, not the fifty-odd
 * routes and their schemas; a route's chunk is loaded once per container.
 * route-keys.ts builds the full ROUTE_TABLE from the same modules for the CDK
 * API, the local gateway and the OpenAPI document; a unit test keeps the two equal.
 */

type Group = Readonly<Record<string, RouteDeclaration>>;

/** Each route group, imported on first use. */
export const ROUTE_GROUPS = {
  meta: (): Promise<Group> => import('./routes/meta').then((m) => m.metaRoutes),
  leases: (): Promise<Group> => import('./routes/leases').then((m) => m.leaseRoutes),
  'lease-metrics': (): Promise<Group> => import('./routes/lease-metrics').then((m) => m.leaseMetricsRoutes),
  'lease-logs': (): Promise<Group> => import('./routes/lease-logs').then((m) => m.leaseLogRoutes),
  'lease-session': (): Promise<Group> => import('./routes/lease-session').then((m) => m.leaseSessionRoutes),
  usage: (): Promise<Group> => import('./routes/usage').then((m) => m.usageRoutes),
  profile: (): Promise<Group> => import('./routes/profile').then((m) => m.profileRoutes),
  budgets: (): Promise<Group> => import('./routes/budgets').then((m) => m.budgetRoutes),
  'scaling-groups': (): Promise<Group> => import('./routes/scaling-groups').then((m) => m.scalingGroupRoutes),
  audit: (): Promise<Group> => import('./routes/audit').then((m) => m.auditRoutes),
  settings: (): Promise<Group> => import('./routes/settings').then((m) => m.settingsRoutes),
  pools: (): Promise<Group> => import('./routes/pools').then((m) => m.poolRoutes),
  reservations: (): Promise<Group> => import('./routes/reservations').then((m) => m.reservationRoutes),
  images: (): Promise<Group> => import('./routes/images').then((m) => m.imageRoutes),
  'idle-policy': (): Promise<Group> => import('./routes/idle-policy').then((m) => m.idlePolicyRoutes),
  'spend-anomalies': (): Promise<Group> =>
    import('./routes/spend-anomalies').then((m) => m.spendAnomalyRoutes),
  'warm-pools': (): Promise<Group> => import('./routes/warm-pools').then((m) => m.warmPoolRoutes),
  quota: (): Promise<Group> => import('./routes/quota').then((m) => m.quotaRoutes),
  limits: (): Promise<Group> => import('./routes/limits').then((m) => m.limitRoutes),
} as const;

export type RouteGroup = keyof typeof ROUTE_GROUPS;

/** Every route key (`METHOD /path`, as API Gateway sends it) and the group that declares it. */
export const ROUTE_INDEX = {
  'GET /v1/health': 'meta',
  'GET /v1/openapi.json': 'meta',
  'POST /v1/leases': 'leases',
  'GET /v1/leases': 'leases',
  'GET /v1/leases/{id}': 'leases',
  'DELETE /v1/leases/{id}': 'leases',
  'GET /v1/leases/{id}/metrics': 'lease-metrics',
  'GET /v1/leases/{id}/logs': 'lease-logs',
  'POST /v1/leases/{id}/session': 'lease-session',
  'GET /v1/usage': 'usage',
  'GET /v1/usage/export': 'usage',
  'GET /v1/profile': 'profile',
  'GET /v1/budgets': 'budgets',
  'PUT /v1/budgets/{name}': 'budgets',
  'GET /v1/budgets/{name}': 'budgets',
  'DELETE /v1/budgets/{name}': 'budgets',
  'GET /v1/admin/budgets': 'budgets',
  'GET /v1/scaling-groups': 'scaling-groups',
  'PUT /v1/scaling-groups/{name}': 'scaling-groups',
  'GET /v1/scaling-groups/{name}': 'scaling-groups',
  'DELETE /v1/scaling-groups/{name}': 'scaling-groups',
  'GET /v1/audit/{month}': 'audit',
  'GET /v1/audit/{month}/report.html': 'audit',
  'GET /v1/settings': 'settings',
  'PUT /v1/settings': 'settings',
  'GET /v1/pools': 'pools',
  'GET /v1/admin/reservations': 'reservations',
  'PUT /v1/admin/reservations/{id}': 'reservations',
  'GET /v1/admin/reservations/{id}': 'reservations',
  'DELETE /v1/admin/reservations/{id}': 'reservations',
  'PUT /v1/admin/images/{name}/versions/{version}': 'images',
  'POST /v1/admin/images/{name}/versions/{version}/promote': 'images',
  'POST /v1/admin/images/{name}/rollback': 'images',
  'GET /v1/admin/images': 'images',
  'GET /v1/admin/images/{name}': 'images',
  'GET /v1/idle-policy': 'idle-policy',
  'PUT /v1/idle-policy': 'idle-policy',
  'DELETE /v1/idle-policy': 'idle-policy',
  'GET /v1/admin/tenants/{tenantId}/idle-policy': 'idle-policy',
  'PUT /v1/admin/tenants/{tenantId}/idle-policy': 'idle-policy',
  'DELETE /v1/admin/tenants/{tenantId}/idle-policy': 'idle-policy',
  'GET /v1/spend-anomaly-settings': 'spend-anomalies',
  'PUT /v1/spend-anomaly-settings': 'spend-anomalies',
  'GET /v1/admin/warm-pools': 'warm-pools',
  'PUT /v1/admin/warm-pools/{name}': 'warm-pools',
  'GET /v1/admin/warm-pools/{name}': 'warm-pools',
  'DELETE /v1/admin/warm-pools/{name}': 'warm-pools',
  'GET /v1/quota': 'quota',
  'PUT /v1/admin/tenants/{tenantId}/quota': 'quota',
  'GET /v1/admin/tenants/{tenantId}/quota': 'quota',
  'GET /v1/limits': 'limits',
  'PUT /v1/admin/tenants/{tenantId}/limits': 'limits',
  'GET /v1/admin/tenants/{tenantId}/limits': 'limits',
} as const satisfies Readonly<Record<string, RouteGroup>>;

export type IndexedRouteKey = keyof typeof ROUTE_INDEX;
