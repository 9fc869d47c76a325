/*
 * What API Gateway itself answers, before the function runs: its HTTP API JWT
 * authorizer refuses a missing or invalid token with 401, and a path no route
 * matches gets 404, both as `{"message": …}` in application/json, not the
 * API's error envelope. The OpenAPI document describes them as GatewayError and
 * the local gateway sends exactly these.
 */
export const GATEWAY_UNAUTHORIZED = { status: 401, body: { message: 'Unauthorized' } } as const;
export const GATEWAY_NOT_FOUND = { status: 404, body: { message: 'Not Found' } } as const;
