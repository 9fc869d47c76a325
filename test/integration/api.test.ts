import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API_ROUTES } from '../../functions/api/route-keys';
import { apiEvent } from '../../local/runtime/api-event';
import { lambdaContext } from '../../local/runtime/lambda-context';
import { awsProbe } from '../support/aws';
import { useFreshResources } from '../support/function-env';

let env: Record<string, string>;
let handler: typeof import('../../functions/api/handler').handler;
const aws = () => awsProbe();

beforeAll(async () => {
  env = await useFreshResources();
  ({ handler } = await import('../../functions/api/handler'));
});

interface Call {
  routeKey: string;
  path?: string;
  tenant?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
  query?: Record<string, string>;
  id?: string;
}

async function call(request: Call) {
  const [, template = ''] = request.routeKey.split(' ');
  const result = (await handler(
    apiEvent({
      routeKey: request.routeKey,
      path: request.path ?? template.replace('{id}', request.id ?? ''),
      headers: { 'content-type': 'application/json', ...request.headers },
      query: request.query,
      pathParameters: request.id === undefined ? undefined : { id: request.id },
      body:
        request.body === undefined
          ? undefined
          : typeof request.body === 'string'
            ? request.body
            : JSON.stringify(request.body),
      claims: request.tenant === null ? {} : { sub: 'user-1', 'custom:tenant': request.tenant ?? 'acme' },
    }),
    lambdaContext('api', 29_000),
  )) as APIGatewayProxyStructuredResultV2;
  const isJson = String(result.headers?.['content-type']).startsWith('application/json');
  return {
    status: result.statusCode,
    body: isJson ? JSON.parse(result.body ?? '{}') : result.body,
    headers: result.headers,
  };
}

const newKey = () => `test-key-${randomUUID()}`;
const create = (body: unknown, tenant = 'acme', key = newKey()) =>
  call({ routeKey: 'POST /v1/leases', body, tenant, headers: { 'idempotency-key': key } });

const leasesOf = async (tenant: string) =>
  (await aws().scan(env.LEASES_TABLE_NAME ?? '')).filter((item) => item.pk === `TENANT#${tenant}`);

beforeEach(async () => {
  await aws().purge(env.LEASE_COMMANDS_QUEUE_URL ?? '');
});

describe('POST /v1/leases', () => {
  it('stores a PENDING lease and queues exactly one provision command', async () => {
    const response = await create({ workload: 'training', gpus: 2 }, 'tenant-create');
    expect(response.status).toBe(202);
    expect(response.body).toEqual({ leaseId: expect.stringMatching(/^lease_/), status: 'PENDING' });
    expect(response.headers?.location).toBe(`/v1/leases/${response.body.leaseId}`);

    const stored = await leasesOf('tenant-create');
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      leaseId: response.body.leaseId,
      status: 'PENDING',
      gpus: 2,
      instanceType: 'g5.xlarge',
    });
    const messages = await aws().receiveAll(env.LEASE_COMMANDS_QUEUE_URL ?? '');
    expect(messages.map((m) => JSON.parse(m))).toEqual([
      { type: 'provision', tenantId: 'tenant-create', leaseId: response.body.leaseId },
    ]);
  });

  it('answers a retry with the same Idempotency-Key with the first lease, storing nothing new', async () => {
    const key = newKey();
    const first = await create({ workload: 'inference', gpus: 1 }, 'tenant-retry', key);
    const again = await create({ workload: 'inference', gpus: 1 }, 'tenant-retry', key);
    expect(again.status).toBe(202);
    expect(again.body.leaseId).toBe(first.body.leaseId);
    expect(await leasesOf('tenant-retry')).toHaveLength(1);
    expect(await aws().receiveAll(env.LEASE_COMMANDS_QUEUE_URL ?? '')).toHaveLength(1);
  });

  it('refuses an Idempotency-Key reused with another body', async () => {
    const key = newKey();
    await create({ workload: 'batch', gpus: 1 }, 'tenant-reuse', key);
    const reused = await create({ workload: 'batch', gpus: 3 }, 'tenant-reuse', key);
    expect(reused.status).toBe(422);
    expect(reused.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await leasesOf('tenant-reuse')).toHaveLength(1);
  });

  it('keeps the same key of two tenants apart', async () => {
    const key = newKey();
    const a = await create({ workload: 'batch', gpus: 1 }, 'tenant-k1', key);
    const b = await create({ workload: 'batch', gpus: 1 }, 'tenant-k2', key);
    expect(b.status).toBe(202);
    expect(b.body.leaseId).not.toBe(a.body.leaseId);
  });

  it.each([
    ['no body', undefined, 400, 'BODY_REQUIRED'],
    ['broken JSON', '{"workload":', 400, 'INVALID_JSON'],
    ['unknown workload', { workload: 'mining', gpus: 1 }, 400, 'VALIDATION_FAILED'],
    ['zero GPUs', { workload: 'training', gpus: 0 }, 400, 'VALIDATION_FAILED'],
    ['too many GPUs', { workload: 'training', gpus: 9 }, 400, 'VALIDATION_FAILED'],
    ['fractional GPUs', { workload: 'training', gpus: 1.5 }, 400, 'VALIDATION_FAILED'],
    ['an unknown field', { workload: 'training', gpus: 1, color: 'red' }, 400, 'VALIDATION_FAILED'],
    ['an unknown mode', { workload: 'training', gpus: 1, mode: 'free' }, 400, 'VALIDATION_FAILED'],
    [
      'a multi-GPU type',
      { workload: 'training', gpus: 1, instanceType: 'p4d.24xlarge' },
      400,
      'UNSUPPORTED_INSTANCE_TYPE',
    ],
    [
      'a made-up type',
      { workload: 'training', gpus: 1, instanceType: 'z9.huge' },
      400,
      'UNSUPPORTED_INSTANCE_TYPE',
    ],
    [
      'a region named twice',
      { workload: 'training', gpus: 1, regions: ['us-east-1', 'us-east-1'] },
      400,
      'VALIDATION_FAILED',
    ],
    ['spot for inference', { workload: 'inference', gpus: 1, mode: 'spot' }, 400, 'MODE_NOT_AVAILABLE'],
    [
      'reserved with no commitment',
      { workload: 'training', gpus: 1, mode: 'reserved' },
      400,
      'MODE_NOT_AVAILABLE',
    ],
  ])('rejects %s with a coded 4xx and writes nothing', async (_case, body, status, code) => {
    const response = await create(body, 'tenant-bad');
    expect(response.status).toBe(status);
    expect(response.body.error.code).toBe(code);
    expect(response.body.error.message.length).toBeGreaterThan(10);
    expect(await leasesOf('tenant-bad')).toHaveLength(0);
    expect(await aws().receiveAll(env.LEASE_COMMANDS_QUEUE_URL ?? '')).toHaveLength(0);
  });

  it('names every invalid field in the details', async () => {
    const response = await create({ workload: 'mining', gpus: 0, extra: true }, 'tenant-bad');
    expect(response.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual([
      'body',
      'gpus',
      'workload',
    ]);
  });

  it('requires an Idempotency-Key', async () => {
    const response = await call({
      routeKey: 'POST /v1/leases',
      body: { workload: 'batch', gpus: 1 },
      tenant: 'tenant-bad',
    });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('IDEMPOTENCY_KEY_REQUIRED');
    expect(await leasesOf('tenant-bad')).toHaveLength(0);
  });

  it('refuses a token without a tenant claim', async () => {
    const response = await call({
      routeKey: 'POST /v1/leases',
      body: { workload: 'batch', gpus: 1 },
      tenant: null,
      headers: { 'idempotency-key': newKey() },
    });
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('TENANT_CLAIM_MISSING');
  });
});

describe('reading leases', () => {
  it("shows a tenant only its own leases, and hides others' as not found", async () => {
    const mine = await create({ workload: 'training', gpus: 1 }, 'tenant-own');
    await create({ workload: 'training', gpus: 1 }, 'tenant-other');
    const list = await call({ routeKey: 'GET /v1/leases', tenant: 'tenant-own' });
    expect(list.status).toBe(200);
    expect(list.body.leases.map((l: { leaseId: string }) => l.leaseId)).toEqual([mine.body.leaseId]);

    const own = await call({ routeKey: 'GET /v1/leases/{id}', id: mine.body.leaseId, tenant: 'tenant-own' });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({
      leaseId: mine.body.leaseId,
      status: 'PENDING',
      costMicroUsd: 0,
      costUsd: 0,
      instances: [],
    });
    const foreign = await call({
      routeKey: 'GET /v1/leases/{id}',
      id: mine.body.leaseId,
      tenant: 'tenant-other',
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('LEASE_NOT_FOUND');
  });

  it('pages newest first with a cursor, and rejects a forged cursor', async () => {
    const ids = [];
    for (let i = 0; i < 3; i += 1)
      ids.push((await create({ workload: 'batch', gpus: 1 }, 'tenant-pages')).body.leaseId);
    const first = await call({ routeKey: 'GET /v1/leases', tenant: 'tenant-pages', query: { limit: '2' } });
    expect(first.body.leases.map((l: { leaseId: string }) => l.leaseId)).toEqual([ids[2], ids[1]]);
    const second = await call({
      routeKey: 'GET /v1/leases',
      tenant: 'tenant-pages',
      query: { limit: '2', cursor: first.body.nextCursor },
    });
    expect(second.body.leases.map((l: { leaseId: string }) => l.leaseId)).toEqual([ids[0]]);
    expect(second.body.nextCursor).toBeUndefined();

    const forged = await call({
      routeKey: 'GET /v1/leases',
      tenant: 'tenant-pages',
      query: { cursor: 'bm90LWEtY3Vyc29y' },
    });
    expect(forged.status).toBe(400);
    expect(forged.body.error.code).toBe('INVALID_CURSOR');
    const badLimit = await call({
      routeKey: 'GET /v1/leases',
      tenant: 'tenant-pages',
      query: { limit: '0' },
    });
    expect(badLimit.body.error.code).toBe('VALIDATION_FAILED');
  });

  it.each(['%ZZ', '%E0%A4%A'])(
    'answers the malformed percent-escape %s, as API Gateway passes it on, with a coded 400',
    async (id) => {
      for (const routeKey of ['GET /v1/leases/{id}', 'DELETE /v1/leases/{id}']) {
        const response = await call({ routeKey, id });
        expect(response.status).toBe(400);
        expect(response.body.error).toMatchObject({ code: 'INVALID_PATH', details: [{ path: 'id' }] });
      }
    },
  );

  it.each(['nope', 'lease_short', 'lease_01m8pkk5yyfnsn9agxndw7h54!'])(
    'rejects the malformed id %s',
    async (id) => {
      const response = await call({ routeKey: 'GET /v1/leases/{id}', id });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('INVALID_LEASE_ID');
    },
  );
});

describe('DELETE /v1/leases/{id}', () => {
  it('moves the lease to RELEASING and queues a release, and is safe to repeat', async () => {
    const { body } = await create({ workload: 'training', gpus: 1 }, 'tenant-del');
    await aws().purge(env.LEASE_COMMANDS_QUEUE_URL ?? '');
    const first = await call({ routeKey: 'DELETE /v1/leases/{id}', id: body.leaseId, tenant: 'tenant-del' });
    expect(first.status).toBe(202);
    expect(first.body.status).toBe('RELEASING');
    expect(first.body.releaseRequestedAt).toEqual(expect.any(String));
    const again = await call({ routeKey: 'DELETE /v1/leases/{id}', id: body.leaseId, tenant: 'tenant-del' });
    expect(again.status).toBe(202);
    expect(again.body.releaseRequestedAt).toBe(first.body.releaseRequestedAt);
    const commands = (await aws().receiveAll(env.LEASE_COMMANDS_QUEUE_URL ?? '')).map((m) => JSON.parse(m));
    expect(commands).toContainEqual({ type: 'release', tenantId: 'tenant-del', leaseId: body.leaseId });
  });

  it("cannot release another tenant's lease", async () => {
    const { body } = await create({ workload: 'training', gpus: 1 }, 'tenant-del2');
    const response = await call({ routeKey: 'DELETE /v1/leases/{id}', id: body.leaseId, tenant: 'intruder' });
    expect(response.status).toBe(404);
    const stored = await leasesOf('tenant-del2');
    expect(stored[0]?.status).toBe('PENDING');
  });
});

describe('usage', () => {
  it('reports zero for a tenant with no charges, in the range asked', async () => {
    const response = await call({
      routeKey: 'GET /v1/usage',
      tenant: 'tenant-usage',
      query: { from: '2026-10-01T00:00:00Z', to: '2026-11-01T00:00:00Z', groupBy: 'lease' },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      from: '2026-10-01T00:00:00.000Z',
      to: '2026-11-01T00:00:00.000Z',
      granularity: 'day',
      groupBy: 'lease',
      seconds: 0,
      costMicroUsd: 0,
      costUsd: 0,
      idleMicroUsd: 0,
      groups: [],
    });
  });

  it.each([
    [{ from: '2026-11-02T00:00:00Z', to: '2026-11-01T00:00:00Z' }, 'from'],
    [{ from: 'yesterday' }, 'from'],
    [{ groupBy: 'color' }, 'groupBy'],
    [{ from: '2024-01-01T00:00:00Z', to: '2026-01-01T00:00:00Z' }, 'to'],
    [{ page: '2' }, 'query'],
  ])('rejects the query %o naming %s', async (query, path) => {
    const response = await call({ routeKey: 'GET /v1/usage', tenant: 'tenant-usage', query });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_FAILED');
    expect(response.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('exports CSV with the planner header', async () => {
    const response = await call({ routeKey: 'GET /v1/usage/export', tenant: 'tenant-usage' });
    expect(response.status).toBe(200);
    expect(response.headers?.['content-type']).toMatch(/^text\/csv/);
    expect(response.body).toBe('lease_id,workload,mode,instance_type,gpus,started_at,ended_at,project\n');
  });
});

describe('meta', () => {
  it('answers health without a tenant', async () => {
    const response = await call({ routeKey: 'GET /v1/health', tenant: null });
    expect(response).toMatchObject({ status: 200, body: { status: 'ok' } });
  });

  it('serves an OpenAPI document that describes every route', async () => {
    const response = await call({ routeKey: 'GET /v1/openapi.json', tenant: null });
    expect(response.body.openapi).toBe('3.1.0');
    for (const route of API_ROUTES) {
      const [method = '', path = ''] = route.key.split(' ');
      expect(response.body.paths[path]?.[method.toLowerCase()], route.key).toBeDefined();
    }
  });

  it('answers an unknown route with a coded 404', async () => {
    const response = await call({ routeKey: 'PATCH /v1/leases', tenant: 'acme' });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('ROUTE_NOT_FOUND');
  });
});
