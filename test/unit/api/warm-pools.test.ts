import { beforeEach, describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../../functions/api/http';
import { ROUTE_TABLE, type RouteKey } from '../../../functions/api/route-keys';
import type { ApiContext } from '../../../functions/api/routes/context';
import type { WarmMachine } from '../../../shared/domain/warm-pools/machine';
import { promoteImageVersion, registerImageVersion } from '../../../shared/usecases/images';
import { type FakeControlPlane, fakeControlPlane, T0 } from '../../support/fakes/control-plane';

const POOL = {
  region: 'us-east-1',
  instanceType: 'g5.xlarge',
  size: 2,
  image: 'gpu-base',
  prePull: ['ghcr.io/acme/trainer:1.4'],
};

let plane: FakeControlPlane;
// The warm-pool routes use the pools, images, fleet, catalog, placement and clock, all in the plane.
const context = () => ({ deps: plane }) as unknown as ApiContext;

function event(name: string | undefined, options: { body?: unknown; groups?: string } = {}): ApiEvent {
  return {
    pathParameters: name === undefined ? undefined : { name },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    isBase64Encoded: false,
    requestContext: {
      authorizer: {
        jwt: { claims: { 'custom:tenant': 'ops', 'cognito:groups': options.groups ?? '[admin]' } },
      },
    },
  } as unknown as ApiEvent;
}

const call = (key: RouteKey, name?: string, options?: { body?: unknown; groups?: string }) =>
  ROUTE_TABLE[key].handle(event(name, options), context());
const put = (name: string, body: unknown, groups?: string) =>
  call('PUT /v1/admin/warm-pools/{name}', name, { body, ...(groups && { groups }) });
const bodyOf = (result: { body?: string }) => JSON.parse(result.body ?? '');

beforeEach(async () => {
  plane = fakeControlPlane();
  await registerImageVersion(plane, 'gpu-base', 'v1', { 'us-east-1': 'ami-0123456789abcdef0' });
  await promoteImageVersion(plane, 'gpu-base', 'v1');
});

describe('the warm-pool admin routes', () => {
  it('create a pool (201 with its location), redefine it (200), read, list and delete it', async () => {
    const created = await put('g5-east', POOL);
    expect(created.statusCode).toBe(201);
    expect(created.headers).toMatchObject({ location: '/v1/admin/warm-pools/g5-east' });
    expect(bodyOf(created)).toEqual({
      name: 'g5-east',
      ...POOL,
      machines: { launching: 0, stopping: 0, ready: 0 },
      createdAt: new Date(T0).toISOString(),
      updatedAt: new Date(T0).toISOString(),
    });

    plane.clock.advance(60_000);
    const redefined = await put('g5-east', { ...POOL, zone: 'us-east-1b', size: 3, prePull: undefined });
    expect(redefined.statusCode).toBe(200);
    expect(bodyOf(redefined)).toMatchObject({
      zone: 'us-east-1b',
      size: 3,
      prePull: [],
      createdAt: new Date(T0).toISOString(),
      updatedAt: new Date(T0 + 60_000).toISOString(),
    });

    const got = await call('GET /v1/admin/warm-pools/{name}', 'g5-east');
    expect(bodyOf(got)).toMatchObject({ name: 'g5-east', size: 3, zone: 'us-east-1b' });
    const listed = await call('GET /v1/admin/warm-pools');
    expect(bodyOf(listed).warmPools.map((p: { name: string }) => p.name)).toEqual(['g5-east']);

    expect((await call('DELETE /v1/admin/warm-pools/{name}', 'g5-east')).statusCode).toBe(204);
    await expect(call('GET /v1/admin/warm-pools/{name}', 'g5-east')).rejects.toMatchObject({
      status: 404,
      code: 'WARM_POOL_NOT_FOUND',
    });
    await expect(call('DELETE /v1/admin/warm-pools/{name}', 'g5-east')).rejects.toMatchObject({
      status: 404,
      code: 'WARM_POOL_NOT_FOUND',
    });
  });

  it("count each pool's machines by state, leaving out those a lease claimed", async () => {
    await put('g5-east', POOL);
    await put('g5-any', { ...POOL, size: 1 });
    const machine = (pool: string, instanceId: string, state: WarmMachine['state']): WarmMachine => ({
      pool,
      instanceId,
      region: 'us-east-1',
      zone: 'us-east-1a',
      instanceType: 'g5.xlarge',
      imageVersion: 'gpu-base:v1',
      state,
      launchedAtMs: T0,
    });
    await plane.warmPools.addMachines([
      machine('g5-east', 'i-1', 'ready'),
      machine('g5-east', 'i-2', 'launching'),
      machine('g5-east', 'i-3', 'claimed'),
      machine('g5-any', 'i-4', 'stopping'),
    ]);
    const listed = bodyOf(await call('GET /v1/admin/warm-pools')).warmPools;
    expect(listed.map((p: { name: string; machines: object }) => [p.name, p.machines])).toEqual([
      ['g5-any', { launching: 0, stopping: 1, ready: 0 }],
      ['g5-east', { launching: 1, stopping: 0, ready: 1 }],
    ]);
  });

  it.each([
    ['size above 100', { ...POOL, size: 101 }, 'size'],
    ['size below 0', { ...POOL, size: -1 }, 'size'],
    ['size not whole', { ...POOL, size: 1.5 }, 'size'],
    ['size as a string', { ...POOL, size: '2' }, 'size'],
    ['an unknown field', { ...POOL, warm: true }, 'body'],
    ['a pre-pull that is no image reference', { ...POOL, prePull: ['Not An Image!'] }, 'prePull.0'],
    ['a zone that is no zone', { ...POOL, zone: 'east' }, 'zone'],
    ['a region that is no region', { ...POOL, region: 'mars' }, 'region'],
    ['no image', { ...POOL, image: undefined }, 'image'],
  ])('answer %s with 400 VALIDATION_FAILED naming the field, and store nothing', async (_, body, field) => {
    await expect(put('g5-east', body)).rejects.toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
      details: [expect.objectContaining({ path: field })],
    });
    expect(await plane.warmPools.listPools()).toEqual([]);
  });

  it.each([
    ['a region without GPU fleet', { region: 'eu-west-1' }, 'UNKNOWN_REGION', 'region'],
    [
      'an instance type not in the catalog',
      { instanceType: 'x9.huge' },
      'UNKNOWN_INSTANCE_TYPE',
      'instanceType',
    ],
    ['a zone with no fleet subnet', { zone: 'us-east-1f' }, 'UNKNOWN_ZONE', 'zone'],
    ['an image that is neither name nor name:version', { image: 'a:b:c' }, 'INVALID_IMAGE', 'image'],
    ['an image version never registered', { image: 'gpu-base:v9' }, 'UNKNOWN_IMAGE_VERSION', 'image'],
    [
      'pre-pulls longer than one tag',
      { prePull: Array(30).fill('ghcr.io/acme/x:1') },
      'PREPULL_TOO_LONG',
      'prePull',
    ],
  ])('answer %s with 400 %s, and store nothing', async (_, change, code, field) => {
    await expect(put('g5-east', { ...POOL, ...change })).rejects.toMatchObject({
      status: 400,
      code,
      details: [expect.objectContaining({ path: field })],
    });
    expect(await plane.warmPools.listPools()).toEqual([]);
  });

  it('refuse a name that is not a pool name, and a token outside the admin group', async () => {
    await expect(put('G5_East', POOL)).rejects.toMatchObject({ status: 400, code: 'INVALID_WARM_POOL_NAME' });
    await expect(put('g5-east', POOL, '[tenants]')).rejects.toMatchObject({
      status: 403,
      code: 'ADMIN_REQUIRED',
    });
    await expect(call('GET /v1/admin/warm-pools', undefined, { groups: '' })).rejects.toMatchObject({
      code: 'ADMIN_REQUIRED',
    });
    expect(await plane.warmPools.listPools()).toEqual([]);
  });
});
