import { randomUUID } from 'node:crypto';
import type { ApiEvent } from '../../functions/api/http';

export interface ApiRequest {
  readonly routeKey: string;
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string>>;
  readonly pathParameters?: Readonly<Record<string, string>>;
  readonly body?: string | undefined;
  /** Verified JWT claims; API Gateway passes them as strings. */
  readonly claims?: Readonly<Record<string, string>>;
}

/** A payload-format-2.0 event as the HTTP API with a JWT authorizer delivers it. */
export function apiEvent(request: ApiRequest): ApiEvent {
  const [method = 'GET'] = request.routeKey.split(' ');
  const headers = Object.fromEntries(
    Object.entries(request.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]),
  );
  const query = request.query ?? {};
  const now = new Date();
  return {
    version: '2.0',
    routeKey: request.routeKey,
    rawPath: request.path,
    rawQueryString: new URLSearchParams(query).toString(),
    headers,
    queryStringParameters: Object.keys(query).length > 0 ? { ...query } : undefined,
    pathParameters: request.pathParameters ? { ...request.pathParameters } : undefined,
    body: request.body,
    isBase64Encoded: false,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'local',
      http: {
        method,
        path: request.path,
        protocol: 'HTTP/1.1',
        sourceIp: '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: request.routeKey,
      stage: '$default',
      time: now.toISOString(),
      timeEpoch: now.getTime(),
      authorizer: {
        principalId: '',
        integrationLatency: 0,
        jwt: { claims: { ...request.claims }, scopes: [] },
      },
    },
  } as unknown as ApiEvent;
}
