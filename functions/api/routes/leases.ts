import { PROJECT_PATTERN } from '../../../shared/domain/budgets/budget';
import { RENTAL_MODES, WORKLOADS } from '../../../shared/domain/lease';
import { leaseDurationMinutes } from '../../../shared/domain/lease-expiry';
import { LEASE_ID_PATTERN } from '../../../shared/ids';
import type { CreateLeaseRequest } from '../../../shared/usecases/create-lease';
import { priceChangesOf } from '../../../shared/usecases/price-history';
import * as z from '../../../shared/zod';
import { ApiError, type ApiEvent, type ApiResult, json, parseJsonBody, tenantOf, validate } from '../http';
import { leaseBody } from '../lease-view';
import type { ApiContext } from './context';

export const regionName = z
  .string()
  .check(z.regex(/^[a-z]{2}(-gov)?-[a-z]+-\d$/, 'must be an AWS region such as us-east-1'));

/** One lease may hold up to eight single-GPU instances (one p-class node's worth). */
export const MAX_GPUS_PER_LEASE = 8;

export const createLeaseBody = z
  .strictObject({
    workload: z.enum(WORKLOADS),
    gpus: z.number().check(z.int(), z.gte(1), z.lte(MAX_GPUS_PER_LEASE)),
    instanceType: z.optional(
      z.string().check(z.regex(/^[a-z0-9-]+\.[a-z0-9]+$/, 'must be an EC2 instance type such as g5.xlarge')),
    ),
    mode: z.optional(z.enum(RENTAL_MODES)),
    project: z.optional(
      z
        .string()
        .check(
          z.regex(PROJECT_PATTERN, 'must be 1-64 lowercase letters, digits or hyphens, such as team-vision'),
        ),
    ),
    durationMinutes: z
      .optional(leaseDurationMinutes)
      .check(
        z.describe("Released on its own after this many minutes; default: the tenant's default, else never"),
      ),
    gpuModel: z
      .optional(z.string().check(z.minLength(1), z.maxLength(64)))
      .check(z.describe('Any instance type with this GPU model, e.g. A10G, L4, A100, H100')),
    regions: z
      .optional(z.array(regionName).check(z.minLength(1), z.maxLength(32)))
      .check(z.describe('Regions the lease may run in (default: every GPU region)')),
    dataRegion: z
      .optional(regionName)
      .check(z.describe("Where the lease's data lives; pools elsewhere pay latency and transfer")),
    dataGb: z
      .optional(z.number().check(z.nonnegative(), z.lte(1_000_000)))
      .check(z.describe('Data moved to the lease when it runs away from dataRegion')),
    maxHourlyPrice: z
      .optional(z.number().check(z.positive(), z.lte(100_000)))
      .check(z.describe('USD per hour for all the lease’s instances together')),
    image: z
      .optional(
        z
          .string()
          .check(
            z.regex(
              /^[a-z0-9._-]{1,64}:[a-z0-9._-]{1,64}$/,
              'must be name:version of a registered image version',
            ),
          ),
      )
      .check(
        z.describe("Pin the lease to this image version (default: the default image's current version)"),
      ),
  })
  .check(
    z.refine((body) => body.instanceType === undefined || body.gpuModel === undefined, {
      message: 'name either instanceType or gpuModel, not both',
      path: ['gpuModel'],
    }),
  );

const IDEMPOTENCY_KEY = /^[A-Za-z0-9._:-]{8,128}$/;

/** `limit` and `cursor` of every paged list route. */
export const listQuery = z.strictObject({
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 25),
  cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(512))),
});

export function leaseIdOf(event: ApiEvent): string {
  const id = event.pathParameters?.id ?? '';
  if (!LEASE_ID_PATTERN.test(id)) {
    throw new ApiError(
      400,
      'INVALID_LEASE_ID',
      `"${id}" is not a lease id (lease_ followed by 26 characters)`,
    );
  }
  return id;
}

export async function postLease(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  const tenantId = tenantOf(event);
  const idempotencyKey = event.headers['idempotency-key'];
  if (!idempotencyKey || !IDEMPOTENCY_KEY.test(idempotencyKey)) {
    throw new ApiError(
      400,
      'IDEMPOTENCY_KEY_REQUIRED',
      'Send an Idempotency-Key header of 8-128 letters, digits or ._:- (a UUID works); retries reuse it',
    );
  }
  const body = validate(createLeaseBody, parseJsonBody(event), 'body');
  const request: CreateLeaseRequest = { tenantId, ...body };
  const lease = await ctx.createLeaseOnce({ tenantId, idempotencyKey, request });
  return json(
    202,
    { leaseId: lease.leaseId, status: lease.status },
    { location: `/v1/leases/${lease.leaseId}` },
  );
}

export async function listLeases(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  const tenantId = tenantOf(event);
  const query = validate(listQuery, event.queryStringParameters ?? {}, 'query');
  const page = await ctx.deps.leases.list(tenantId, query.limit, query.cursor);
  return json(200, { leases: page.leases.map((lease) => leaseBody(lease)), nextCursor: page.nextCursor });
}

export async function getLease(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  const tenantId = tenantOf(event);
  const leaseId = leaseIdOf(event);
  const lease = await ctx.deps.leases.get(tenantId, leaseId);
  if (!lease) throw new ApiError(404, 'LEASE_NOT_FOUND', `No lease ${leaseId} for this tenant`);
  const pricing = { changesOf: await priceChangesOf(ctx.deps, lease.instances), nowMs: ctx.deps.now() };
  return json(200, leaseBody(lease, pricing));
}

export async function deleteLease(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  const tenantId = tenantOf(event);
  const lease = await ctx.releaseLease(tenantId, leaseIdOf(event));
  return json(202, leaseBody(lease));
}
