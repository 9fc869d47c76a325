import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_NOT_FOUND, GATEWAY_UNAUTHORIZED } from '../../../functions/api/gateway-errors';
import type { ApiEvent } from '../../../functions/api/http';
import { startHttpGateway } from '../../../local/runtime/http-gateway';
import { LocalTokenIssuer } from '../../../local/runtime/tokens';

/*
 * The local gateway answers as API Gateway does before the function runs, and
 * hands path parameters on as API Gateway does: still percent-encoded.
 */
const tokens = new LocalTokenIssuer();
const events: ApiEvent[] = [];
let server: Server;
let base = '';

beforeAll(async () => {
  server = await startHttpGateway(
    async (event) => {
      events.push(event);
      return { statusCode: 200, headers: { 'content-type': 'application/json' }, body: '{}' };
    },
    tokens,
    0,
  );
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const bearer = async () => ({
  authorization: `Bearer ${await tokens.issue('u', { 'custom:tenant': 't' })}`,
});

describe('the local gateway', () => {
  it("refuses a missing or forged token with API Gateway's own 401, as JSON", async () => {
    for (const headers of [{}, { authorization: 'Bearer forged' }] as Record<string, string>[]) {
      const response = await fetch(`${base}/v1/leases`, { headers });
      expect(response.status).toBe(GATEWAY_UNAUTHORIZED.status);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(await response.json()).toEqual({ message: 'Unauthorized' });
    }
  });

  it("answers a path no route matches with API Gateway's own 404, as JSON", async () => {
    const response = await fetch(`${base}/v1/nowhere`, { headers: await bearer() });
    expect(response.status).toBe(GATEWAY_NOT_FOUND.status);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ message: 'Not Found' });
  });

  it('passes a malformed percent-escape on to the function undecoded, instead of failing itself', async () => {
    events.length = 0;
    for (const path of ['/v1/leases/%ZZ', '/v1/budgets/%E0%A4%A', '/v1/budgets/a%20b']) {
      const response = await fetch(`${base}${path}`, { headers: await bearer() });
      expect(response.status).toBe(200);
    }
    expect(events.map((event) => event.pathParameters)).toEqual([
      { id: '%ZZ' },
      { name: '%E0%A4%A' },
      { name: 'a%20b' },
    ]);
  });
});
