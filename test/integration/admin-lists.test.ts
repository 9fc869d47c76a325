import { DescribeImagesCommand, EC2Client } from '@aws-sdk/client-ec2';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiEvent } from '../../local/runtime/api-event';
import { lambdaContext } from '../../local/runtime/lambda-context';
import { useFreshResources } from '../support/function-env';

let api: typeof import('../../functions/api/handler').handler;
/** A real emulator AMI: registering a version makes a launch template version with it. */
let ami: string;

beforeAll(async () => {
  await useFreshResources();
  ({ handler: api } = await import('../../functions/api/handler'));
  const images = await new EC2Client({ region: 'us-east-1' }).send(
    new DescribeImagesCommand({ Owners: ['amazon'] }),
  );
  ami =
    (images.Images ?? []).map((image) => image.ImageId ?? '').find((id) => /^ami-[0-9a-f]{17}$/.test(id)) ??
    '';
});

const HOUR = 3_600_000;

async function call(
  routeKey: string,
  options: {
    params?: Record<string, string>;
    query?: Record<string, string>;
    body?: unknown;
    groups?: string;
  } = {},
) {
  const params = options.params ?? {};
  const [, template = ''] = routeKey.split(' ');
  const result = (await api(
    apiEvent({
      routeKey,
      path: template.replace(/\{(\w+)\}/g, (_m, name: string) => params[name] ?? ''),
      headers: { 'content-type': 'application/json' },
      pathParameters: params,
      query: options.query,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      claims: { sub: 'op', 'custom:tenant': 'ops', 'cognito:groups': options.groups ?? '[admin]' },
    }),
    lambdaContext('api', 29_000),
  )) as APIGatewayProxyStructuredResultV2;
  return { status: result.statusCode, body: result.body ? JSON.parse(result.body) : undefined };
}

const reservation = (count: number) => ({
  instanceType: 'g6e.xlarge',
  region: 'us-east-1',
  zone: 'us-east-1b',
  count,
  hourlyRate: 1.1,
  start: new Date(Date.now() - HOUR).toISOString(),
  end: new Date(Date.now() + 30 * 24 * HOUR).toISOString(),
});

describe('GET /v1/admin/reservations', () => {
  it('pages every commitment in id order with its use, by limit and nextCursor', async () => {
    for (const [id, count] of [
      ['res-c', 3],
      ['res-a', 1],
      ['res-b', 2],
    ] as const) {
      expect(
        (await call('PUT /v1/admin/reservations/{id}', { params: { id }, body: reservation(count) })).status,
      ).toBe(200);
    }
    const first = await call('GET /v1/admin/reservations', { query: { limit: '2' } });
    expect(first.status).toBe(200);
    expect(first.body.reservations.map((r: { id: string }) => r.id)).toEqual(['res-a', 'res-b']);
    expect(first.body.reservations[1]).toMatchObject({
      instanceType: 'g6e.xlarge',
      count: 2,
      committedGpus: 2,
      usedGpus: 0,
      hourlyRateUsd: 1.1,
    });
    expect(first.body.nextCursor).toEqual(expect.any(String));

    const second = await call('GET /v1/admin/reservations', {
      query: { limit: '2', cursor: first.body.nextCursor },
    });
    expect(second.body.reservations.map((r: { id: string }) => r.id)).toEqual(['res-c']);
    expect(second.body.nextCursor).toBeUndefined();
  });

  it.each([
    ['a limit of 0', { limit: '0' }, 'VALIDATION_FAILED'],
    ['an unknown parameter', { colour: 'red' }, 'VALIDATION_FAILED'],
    [
      'a cursor it did not issue',
      { cursor: Buffer.from('{"sk":"LEASE#x"}').toString('base64url') },
      'INVALID_CURSOR',
    ],
  ])('refuses %s with 400 and a code', async (_case, query, code) => {
    const response = await call('GET /v1/admin/reservations', { query });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe(code);
  });

  it('refuses a tenant token with 403', async () => {
    const response = await call('GET /v1/admin/reservations', { groups: '' });
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('ADMIN_REQUIRED');
  });
});

describe('GET /v1/admin/images and /v1/admin/images/{name}', () => {
  const register = (name: string, version: string) =>
    call('PUT /v1/admin/images/{name}/versions/{version}', {
      params: { name, version },
      body: { amis: { 'us-east-1': ami } },
    });
  const promote = (name: string, version: string) =>
    call('POST /v1/admin/images/{name}/versions/{version}/promote', { params: { name, version } });

  it('lists every image with its current and previous version, including versions never promoted', async () => {
    for (const version of ['v1', 'v2', 'v3']) expect((await register('gpu', version)).status).toBe(200);
    expect((await register('cuda', 'v1')).status).toBe(200);
    await promote('gpu', 'v1');
    await promote('gpu', 'v2');

    const listed = await call('GET /v1/admin/images');
    expect(listed.status).toBe(200);
    expect(listed.body.images).toEqual([
      {
        name: 'cuda',
        current: null,
        previous: null,
        versions: [{ version: 'v1', current: false, regions: ['us-east-1'], createdAt: expect.any(String) }],
      },
      {
        name: 'gpu',
        current: 'v2',
        previous: 'v1',
        versions: ['v1', 'v2', 'v3'].map((version) => ({
          version,
          current: version === 'v2',
          regions: ['us-east-1'],
          createdAt: expect.any(String),
        })),
      },
    ]);
  });

  it('shows one image with every version, the current one in full, and an unpromoted image too', async () => {
    const gpu = await call('GET /v1/admin/images/{name}', { params: { name: 'gpu' } });
    expect(gpu.status).toBe(200);
    expect(gpu.body).toMatchObject({ name: 'gpu', current: 'v2', previous: 'v1', history: ['v1'] });
    expect(gpu.body.versions.map((v: { version: string }) => v.version)).toEqual(['v1', 'v2', 'v3']);
    expect(gpu.body.currentVersion).toMatchObject({ version: 'v2', amis: { 'us-east-1': ami } });

    const cuda = await call('GET /v1/admin/images/{name}', { params: { name: 'cuda' } });
    expect(cuda.status).toBe(200);
    expect(cuda.body).toMatchObject({
      name: 'cuda',
      current: null,
      history: [],
      versions: [{ version: 'v1' }],
    });

    const missing = await call('GET /v1/admin/images/{name}', { params: { name: 'nothing' } });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('IMAGE_NOT_FOUND');
  });

  it('refuses a tenant token with 403', async () => {
    for (const [routeKey, params] of [
      ['GET /v1/admin/images', {}],
      ['GET /v1/admin/images/{name}', { name: 'gpu' }],
    ] as const) {
      const response = await call(routeKey, { params, groups: '' });
      expect(response.status, routeKey).toBe(403);
      expect(response.body.error.code).toBe('ADMIN_REQUIRED');
    }
  });
});
