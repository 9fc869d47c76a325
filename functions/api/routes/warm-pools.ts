import type { WarmMachine } from '../../../shared/domain/warm-pools/machine';
import {
  IMAGE_REFERENCE_PATTERN,
  MAX_PREPULL_TAG_LENGTH,
  MAX_WARM_POOL_SIZE,
  WARM_POOL_NAME_PATTERN,
  type WarmPool,
} from '../../../shared/domain/warm-pools/pool';
import { deleteWarmPool, putWarmPool, WarmPoolNotFoundError } from '../../../shared/usecases/warm-pools';
import * as z from '../../../shared/zod';
import { type ApiEvent, type ApiResult, json, parseJsonBody, requireAdmin, validate } from '../http';
import {
  adminErrors,
  errorResponse,
  instant,
  jsonContent,
  jsonSchema,
  type OpenApiGroup,
  pathParameterDoc,
  ref,
  responseObject,
} from '../openapi-parts';
import { pathParameter, pathValue } from '../path';
import type { Routes } from '../routing';
import type { ApiContext } from './context';
import { regionName } from './leases';

export const warmPoolBody = z.strictObject({
  region: regionName,
  zone: z.optional(
    z
      .string()
      .check(
        z.regex(/^[a-z]{2}(-gov)?-[a-z]+-\d[a-z]$/, 'must be an availability zone such as us-east-1a'),
        z.describe('An availability zone of the region; omit it for any zone the fleet has subnets in'),
      ),
  ),
  instanceType: z
    .string()
    .check(z.regex(/^[a-z0-9-]+\.[a-z0-9]+$/, 'must be an EC2 instance type such as g5.xlarge')),
  size: z
    .number()
    .check(
      z.int('must be a whole number'),
      z.gte(0, 'must be at least 0'),
      z.lte(MAX_WARM_POOL_SIZE, `must be at most ${MAX_WARM_POOL_SIZE}`),
      z.describe('Stopped machines kept ready (0 keeps the pool defined but empty)'),
    ),
  image: z
    .string()
    .check(
      z.minLength(1),
      z.maxLength(129),
      z.describe(
        'The GPU image the machines are built from: `name` follows its current version (a promotion or rollback rebuilds the pool), `name:version` pins one',
      ),
    ),
  prePull: z._default(
    z
      .array(
        z
          .string()
          .check(
            z.regex(
              IMAGE_REFERENCE_PATTERN,
              'must be a container image reference such as nvcr.io/nvidia/pytorch:24.01-py3',
            ),
          ),
      )
      .check(
        z.describe(
          `Container images pulled while each machine initialises, so tasks start without a pull; at most ${MAX_PREPULL_TAG_LENGTH} characters space-separated`,
        ),
      ),
    [],
  ),
});

const poolName = pathParameter(
  'name',
  WARM_POOL_NAME_PATTERN,
  'INVALID_WARM_POOL_NAME',
  (name) => `"${name}" is not a warm pool name: 1-63 of a-z 0-9 -, starting with a letter or digit`,
);

/** Machines the pool holds now, by state; claimed ones are their lease's, not the pool's. */
function machineCounts(machines: readonly WarmMachine[]) {
  const counts = { launching: 0, stopping: 0, ready: 0 };
  for (const machine of machines) if (machine.state !== 'claimed') counts[machine.state] += 1;
  return counts;
}

const poolView = (pool: WarmPool, machines: readonly WarmMachine[]) => ({
  name: pool.name,
  region: pool.region,
  zone: pool.zone,
  instanceType: pool.instanceType,
  size: pool.size,
  image: pool.image,
  prePull: pool.prePull,
  machines: machineCounts(machines.filter((machine) => machine.pool === pool.name)),
  createdAt: new Date(pool.createdAtMs).toISOString(),
  updatedAt: new Date(pool.updatedAtMs).toISOString(),
});

export async function putWarmPoolRoute(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  requireAdmin(event);
  const name = pathValue(event, poolName);
  const body = validate(warmPoolBody, parseJsonBody(event), 'body');
  const { pool, created } = await putWarmPool(ctx.deps, { name, ...body });
  return json(
    created ? 201 : 200,
    poolView(pool, await ctx.deps.warmPools.listMachines()),
    created ? { location: `/v1/admin/warm-pools/${name}` } : {},
  );
}

export async function getWarmPool(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  requireAdmin(event);
  const name = pathValue(event, poolName);
  const [pool, machines] = await Promise.all([
    ctx.deps.warmPools.getPool(name),
    ctx.deps.warmPools.listMachines(),
  ]);
  if (!pool) throw new WarmPoolNotFoundError(name);
  return json(200, poolView(pool, machines));
}

export async function listWarmPools(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  requireAdmin(event);
  const [pools, machines] = await Promise.all([
    ctx.deps.warmPools.listPools(),
    ctx.deps.warmPools.listMachines(),
  ]);
  return json(200, { warmPools: pools.map((pool) => poolView(pool, machines)) });
}

export async function deleteWarmPoolRoute(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  requireAdmin(event);
  await deleteWarmPool(ctx.deps, pathValue(event, poolName));
  return { statusCode: 204 };
}

export const warmPoolRoutes = {
  'GET /v1/admin/warm-pools': { handle: listWarmPools },
  'PUT /v1/admin/warm-pools/{name}': { handle: putWarmPoolRoute },
  'GET /v1/admin/warm-pools/{name}': { handle: getWarmPool },
  'DELETE /v1/admin/warm-pools/{name}': { handle: deleteWarmPoolRoute },
} as const satisfies Routes;

export const warmPoolOpenApi = (): OpenApiGroup<keyof typeof warmPoolRoutes> => {
  const nameParameter = pathParameterDoc(poolName);
  const poolResponse = (description: string) => ({
    description,
    content: jsonContent(ref('WarmPool')),
  });
  return {
    tag: {
      name: 'Warm pools',
      description:
        'For operators: stopped GPU machines kept initialised, so on-demand leases start in seconds',
    },
    schemas: {
      WarmPoolRequest: jsonSchema(warmPoolBody),
      WarmPool: responseObject(
        {
          name: { type: 'string' },
          region: { type: 'string' },
          zone: { type: 'string', description: 'Absent: any zone the fleet has subnets in' },
          instanceType: { type: 'string' },
          size: { type: 'integer', description: 'Stopped machines the filler keeps ready' },
          image: { type: 'string', description: '`name` (follows its current version) or `name:version`' },
          prePull: { type: 'array', items: { type: 'string' } },
          machines: responseObject(
            {
              launching: { type: 'integer', description: 'Launched, initialising' },
              stopping: { type: 'integer', description: 'Signalled ready, being stopped' },
              ready: { type: 'integer', description: 'Stopped, ready for a lease' },
            },
            [],
            { description: 'The machines the pool holds now, by state' },
          ),
          createdAt: instant,
          updatedAt: instant,
        },
        ['zone'],
      ),
    },
    operations: {
      'GET /v1/admin/warm-pools': {
        operationId: 'listWarmPools',
        summary: 'Admin: every warm pool in name order, with its machines by state',
        description:
          'Every pool the filler keeps, and how many of its machines are launching, stopping or ready.',
        responses: {
          '200': {
            description: 'The warm pools',
            content: jsonContent(responseObject({ warmPools: { type: 'array', items: ref('WarmPool') } })),
          },
          ...adminErrors,
        },
      },
      'PUT /v1/admin/warm-pools/{name}': {
        operationId: 'putWarmPool',
        summary: 'Admin: create or redefine a warm pool',
        description:
          'Checks the pool against the GPU regions, the catalog, the fleet’s zones and the images, then stores it; the filler launches, initialises and stops machines up to `size`. Nothing is stored on a 400.',
        parameters: [nameParameter],
        requestBody: { required: true, content: jsonContent(ref('WarmPoolRequest')) },
        responses: {
          '200': poolResponse('The pool, redefined'),
          '201': {
            ...poolResponse('The pool, created'),
            headers: { location: { schema: { type: 'string' }, description: 'The pool’s URL' } },
          },
          '400': errorResponse(
            'VALIDATION_FAILED, INVALID_JSON, BODY_REQUIRED, INVALID_WARM_POOL_NAME, UNKNOWN_REGION, UNKNOWN_INSTANCE_TYPE, UNKNOWN_ZONE, INVALID_IMAGE, UNKNOWN_IMAGE_VERSION or PREPULL_TOO_LONG',
          ),
          '403': errorResponse('ADMIN_REQUIRED'),
        },
      },
      'GET /v1/admin/warm-pools/{name}': {
        operationId: 'getWarmPool',
        summary: 'Admin: a warm pool with its machines by state',
        description: 'The pool’s definition and how many of its machines are launching, stopping or ready.',
        parameters: [nameParameter],
        responses: {
          '200': poolResponse('The pool'),
          '400': errorResponse('INVALID_WARM_POOL_NAME'),
          '403': errorResponse('ADMIN_REQUIRED'),
          '404': errorResponse('WARM_POOL_NOT_FOUND'),
        },
      },
      'DELETE /v1/admin/warm-pools/{name}': {
        operationId: 'deleteWarmPool',
        summary: 'Admin: delete a warm pool; the filler ends its machines',
        description:
          'Removes the pool; its stopped machines are terminated on the filler’s next run, machines leases hold are not touched.',
        parameters: [nameParameter],
        responses: {
          '204': { description: 'Deleted' },
          '400': errorResponse('INVALID_WARM_POOL_NAME'),
          '403': errorResponse('ADMIN_REQUIRED'),
          '404': errorResponse('WARM_POOL_NOT_FOUND'),
        },
      },
    },
  };
};
