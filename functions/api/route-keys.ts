/**
 * The API's routes as API Gateway route keys. The CDK API construct, the local
 * gateway and the handler's route table are all checked against this list.
 */
export const API_ROUTES = [
  { key: 'GET /v1/health', public: true },
  { key: 'GET /v1/openapi.json', public: true },
  { key: 'POST /v1/leases', public: false },
  { key: 'GET /v1/leases', public: false },
  { key: 'GET /v1/leases/{id}', public: false },
  { key: 'DELETE /v1/leases/{id}', public: false },
  { key: 'GET /v1/usage', public: false },
  { key: 'GET /v1/usage/export', public: false },
] as const;

export type RouteKey = (typeof API_ROUTES)[number]['key'];
