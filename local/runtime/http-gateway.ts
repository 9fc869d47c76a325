import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { GATEWAY_NOT_FOUND, GATEWAY_UNAUTHORIZED } from '../../functions/api/gateway-errors';
import { type ApiEvent, json } from '../../functions/api/http';
import { API_ROUTES, isPublicRoute } from '../../functions/api/route-keys';
import { apiEvent } from './api-event';
import { invoke } from './lambda-context';
import { LOCAL_TOKEN_PATH, mintLocalToken } from './token-minting';
import type { LocalTokenIssuer } from './tokens';

type ApiHandler = (event: ApiEvent, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

interface CompiledRoute {
  readonly key: string;
  readonly method: string;
  readonly pattern: RegExp;
  readonly params: readonly string[];
  readonly public: boolean;
}

const compiled: readonly CompiledRoute[] = API_ROUTES.map((route) => {
  const [method = '', path = ''] = route.key.split(' ');
  const params: string[] = [];
  const source = path.replace(/[.]/g, '\\.').replace(/\{(\w+)\}/g, (_match, name: string) => {
    params.push(name);
    return '([^/]+)';
  });
  return { key: route.key, method, pattern: new RegExp(`^${source}$`), params, public: isPublicRoute(route) };
});

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** API Gateway hands JWT claims to the function as strings. */
function claimStrings(claims: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(claims).map(([name, value]) => [
      name,
      typeof value === 'string' ? value : Array.isArray(value) ? `[${value.join(' ')}]` : String(value),
    ]),
  );
}

function send(response: ServerResponse, result: APIGatewayProxyStructuredResultV2): void {
  response.writeHead(result.statusCode ?? 200, result.headers as Record<string, string>);
  response.end(
    result.isBase64Encoded && result.body ? Buffer.from(result.body, 'base64') : (result.body ?? ''),
  );
}

const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/**
 * Plays the HTTP API: matches the route, runs the JWT authorizer on protected
 * routes (401 before the function is called, as API Gateway does), and turns the
 * request into a payload-format-2.0 event for the real handler. Also plays the
 * user pool's sign-up, locally only: LOCAL_TOKEN_PATH mints a tenant's token.
 */
export function startHttpGateway(
  handler: ApiHandler,
  tokens: LocalTokenIssuer,
  port: number,
): Promise<Server> {
  const server = createServer(async (request, response) => {
    try {
      const url = new URL(request.url ?? '/', 'http://local');
      const method = request.method ?? 'GET';
      if (method === 'POST' && url.pathname === LOCAL_TOKEN_PATH) {
        send(response, await mintLocalToken(tokens, request.headers.authorization, await readBody(request)));
        return;
      }
      const route = compiled.find((r) => r.method === method && r.pattern.test(url.pathname));
      if (!route) {
        send(response, json(GATEWAY_NOT_FOUND.status, GATEWAY_NOT_FOUND.body));
        return;
      }
      const headers = Object.fromEntries(
        Object.entries(request.headers).map(([name, value]) => [
          name,
          Array.isArray(value) ? value.join(',') : (value ?? ''),
        ]),
      );
      const claims = route.public ? {} : await tokens.verify(headers.authorization);
      if (!claims) {
        send(response, json(GATEWAY_UNAUTHORIZED.status, GATEWAY_UNAUTHORIZED.body));
        return;
      }
      const match = route.pattern.exec(url.pathname) ?? [];
      const query = new Map<string, string>();
      for (const [name, value] of url.searchParams)
        query.set(name, query.has(name) ? `${query.get(name)},${value}` : value);
      const body = await readBody(request);
      const event = apiEvent({
        routeKey: route.key,
        path: url.pathname,
        headers,
        query: Object.fromEntries(query),
        pathParameters:
          route.params.length > 0
            ? // Still percent-encoded, as API Gateway passes them: the handler decodes (and refuses a bad escape).
              Object.fromEntries(route.params.map((name, i) => [name, match[i + 1] ?? '']))
            : undefined,
        body: body.length > 0 ? body : undefined,
        claims: claimStrings(claims),
      });
      send(response, await invoke('gpurent-api', 29_000, (context) => handler(event, context)));
    } catch (error) {
      // The handler answers its own errors; this is the gateway failing, as a 502 would be.
      console.error('local gateway error', error);
      send(response, json(502, { message: 'Bad Gateway' }));
    }
  });
  // Clients (fetch's undici) drop an idle kept-alive socket after 4 s; Node's server closes its side
  // after 5 s. Under load the two cross: a request sent as the server closes fails with "fetch
  // failed". A server that waits longer than any client leaves the closing to the client, as API
  // Gateway does.
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}
