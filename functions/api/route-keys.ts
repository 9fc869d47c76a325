/**
 * The API's routes as API Gateway route keys. The CDK API construct, the local
 * gateway, the OpenAPI document and the handler's route table all follow this list.
 * A route is public only with a reason; every other route needs a tenant token.
 */
export const API_ROUTES = [
  {
    key: 'GET /v1/health',
    publicBecause: 'load balancers and uptime checks call it without credentials; it returns only a status',
  },
  {
    key: 'GET /v1/openapi.json',
    publicBecause: 'the API description is public documentation and contains no tenant data',
  },
  { key: 'POST /v1/leases' },
  { key: 'GET /v1/leases' },
  { key: 'GET /v1/leases/{id}' },
  { key: 'DELETE /v1/leases/{id}' },
  { key: 'GET /v1/usage' },
  { key: 'GET /v1/usage/export' },
  { key: 'GET /v1/budgets' },
  { key: 'PUT /v1/budgets/{name}' },
  { key: 'GET /v1/budgets/{name}' },
  { key: 'DELETE /v1/budgets/{name}' },
  { key: 'GET /v1/admin/budgets' },
  { key: 'GET /v1/profile' },
  { key: 'GET /v1/leases/{id}/metrics' },
  { key: 'GET /v1/scaling-groups' },
  { key: 'PUT /v1/scaling-groups/{name}' },
  { key: 'GET /v1/scaling-groups/{name}' },
  { key: 'DELETE /v1/scaling-groups/{name}' },
  { key: 'GET /v1/audit/{month}' },
  { key: 'GET /v1/audit/{month}/report.html' },
  { key: 'GET /v1/settings' },
  { key: 'PUT /v1/settings' },
  { key: 'GET /v1/pools' },
  { key: 'GET /v1/admin/reservations' },
  { key: 'PUT /v1/admin/reservations/{id}' },
  { key: 'GET /v1/admin/reservations/{id}' },
  { key: 'DELETE /v1/admin/reservations/{id}' },
  { key: 'PUT /v1/admin/images/{name}/versions/{version}' },
  { key: 'POST /v1/admin/images/{name}/versions/{version}/promote' },
  { key: 'POST /v1/admin/images/{name}/rollback' },
  { key: 'GET /v1/admin/images' },
  { key: 'GET /v1/admin/images/{name}' },
] as const satisfies readonly { key: string; publicBecause?: string }[];

export type RouteKey = (typeof API_ROUTES)[number]['key'];

export const isPublicRoute = (route: (typeof API_ROUTES)[number]): boolean => 'publicBecause' in route;
