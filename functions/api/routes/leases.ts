import { ClientError } from '../../../shared/client-error';
import { leaseAdmissionFields } from '../../../shared/domain/admission/quota';
import { PROJECT_PATTERN } from '../../../shared/domain/budgets/budget';
import { DeadlineRequestError, deadlineRequestProblem } from '../../../shared/domain/deadlines/lease-request';
import { LEASE_STARTS, LEASE_STATUSES, RENTAL_MODES, WORKLOADS } from '../../../shared/domain/lease';
import { leaseDurationMinutes } from '../../../shared/domain/lease-expiry';
import { secretsOutsidePrefix, taskSpecSchema } from '../../../shared/domain/tasks/spec';
import { leaseGpusSchema } from '../../../shared/domain/waste/fractional';
import { LeaseNotFoundError } from '../../../shared/errors';
import { LEASE_ID_PATTERN } from '../../../shared/ids';
import type { CreateLeaseRequest } from '../../../shared/usecases/create-lease';
import { priceChangesOf } from '../../../shared/usecases/price-history';
import * as z from '../../../shared/zod';
import { type ApiEvent, type ApiResult, json, parseJsonBody, tenantOf, validate } from '../http';
import { leaseBody } from '../lease-view';
import {
  authErrors,
  errorResponse,
  instant,
  jsonContent,
  jsonSchema,
  micro,
  microByDimension,
  type OpenApiGroup,
  pageParameters,
  pathParameterDoc,
  ref,
  responseObject,
  usd,
} from '../openapi-parts';
import { pathParameter, pathValue } from '../path';
import type { Routes } from '../routing';
import { taskOpenApiSchema } from '../task-view';
import type { ApiContext } from './context';

export const regionName = z
  .string()
  .check(z.regex(/^[a-z]{2}(-gov)?-[a-z]+-\d$/, 'must be an AWS region such as us-east-1'));

export const createLeaseBody = z
  .strictObject({
    workload: z.enum(WORKLOADS),
    gpus: leaseGpusSchema.check(
      z.describe('Whole GPUs (1-8), or 0.125, 0.25 or 0.5 of one GPU on a fractional type (g6f, gr6f)'),
    ),
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
      .optional(
        z.array(regionName).check(
          z.minLength(1),
          z.maxLength(32),
          z.refine((regions) => new Set(regions).size === regions.length, 'must not name a region twice'),
        ),
      )
      .check(z.describe('Regions the lease may run in, each once (default: every GPU region)')),
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
    task: z
      .optional(taskSpecSchema)
      .check(z.describe('Work to run on the lease once it runs (SSM Run Command); see the Task schema')),
    priority: leaseAdmissionFields.priority.check(
      z.describe(
        "0-1000: orders the tenant's own waiting leases, highest first (never against other tenants)",
      ),
    ),
    maxWaitMinutes: leaseAdmissionFields.maxWaitMinutes.check(
      z.describe('How long the lease may wait in the admission queue; past it: FAILED with QUEUE_TIMEOUT'),
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

export const leaseIdParameter = pathParameter(
  'id',
  LEASE_ID_PATTERN,
  'INVALID_LEASE_ID',
  (id) => `"${id}" is not a lease id (lease_ followed by 26 characters)`,
);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export async function postLease(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  const tenantId = tenantOf(event);
  const idempotencyKey = event.headers['idempotency-key'];
  if (!idempotencyKey || !IDEMPOTENCY_KEY.test(idempotencyKey)) {
    throw new ClientError(
      400,
      'IDEMPOTENCY_KEY_REQUIRED',
      'Send an Idempotency-Key header of 8-128 letters, digits or ._:- (a UUID works); retries reuse it',
    );
  }
  const raw = parseJsonBody(event);
  // Deadlines belong to the task; named on a lease without one, they get the code that says why.
  if (isObject(raw) && raw.deadline !== undefined) {
    const problem = deadlineRequestProblem({ hasTask: raw.task !== undefined });
    if (problem) throw new DeadlineRequestError(problem);
  }
  const body = validate(createLeaseBody, raw, 'body');
  const [outside] = body.task ? secretsOutsidePrefix(body.task, tenantId) : [];
  if (outside !== undefined) {
    throw new ClientError(
      400,
      'VALIDATION_FAILED',
      `task.secrets.${outside} must name an SSM parameter under /gpurent/${tenantId}/ or a Secrets Manager secret under gpurent/${tenantId}/`,
      `task.secrets.${outside}`,
    );
  }
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
  const leaseId = pathValue(event, leaseIdParameter);
  const lease = await ctx.deps.leases.get(tenantId, leaseId);
  if (!lease) throw new LeaseNotFoundError(leaseId);
  const pricing = { changesOf: await priceChangesOf(ctx.deps, lease.instances), nowMs: ctx.deps.now() };
  return json(200, leaseBody(lease, pricing));
}

export async function deleteLease(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  const tenantId = tenantOf(event);
  const lease = await ctx.releaseLease(tenantId, pathValue(event, leaseIdParameter));
  return json(202, leaseBody(lease));
}

export const leaseRoutes = {
  'POST /v1/leases': { handle: postLease },
  'GET /v1/leases': { handle: listLeases },
  'GET /v1/leases/{id}': { handle: getLease },
  'DELETE /v1/leases/{id}': { handle: deleteLease },
} as const satisfies Routes;

export const leaseIdDoc = () =>
  pathParameterDoc(leaseIdParameter, 'The lease id POST /v1/leases answered with');

/** Where a lease waiting for admission stands (`queueBody`), with `extra` properties of its own. */
export const queueStateDoc = (
  extra: Readonly<Record<string, unknown>> = {},
  properties: Readonly<Record<string, object>> = {},
) =>
  responseObject(
    {
      ...properties,
      reason: {
        type: 'string',
        enum: ['quota', 'capacity', 'account-quota'],
        description:
          "Why it waits: its tenant's quota, no capacity in any allowed pool, or the account's EC2 vCPU quota",
      },
      position: { type: 'integer', description: '1 = the next to be admitted' },
      estimatedStartAt: {
        ...instant,
        description: 'Absent when no release known now lets it in before maxWaitMinutes',
      },
      estimateBasis: {
        type: 'string',
        description:
          'What the estimate rests on: fits-now, lease-expiry, declared-runtime, history:tenant-workload, history:workload, default (an hour per lease), outlived-history, after-refusal (EC2 refused it; tried again after the back-off), times-out or no-known-release',
      },
      waitEndsAt: {
        ...instant,
        description:
          'When it stops waiting: FAILED with QUEUE_TIMEOUT unless admitted by then (maxWaitMinutes after it joined the queue)',
      },
    },
    ['estimatedStartAt', 'waitEndsAt'],
    extra,
  );

export const leaseOpenApi = (): OpenApiGroup<keyof typeof leaseRoutes> => ({
  tag: { name: 'Leases', description: 'Rent GPUs: ask for them, follow the lease, release it' },
  schemas: {
    CreateLeaseRequest: jsonSchema(createLeaseBody),
    Instance: responseObject(
      {
        instanceId: { type: 'string' },
        instanceType: { type: 'string' },
        mode: { type: 'string', enum: RENTAL_MODES },
        region: { type: 'string' },
        zone: { type: 'string' },
        pricePerHourUsd: { ...usd, description: 'The hourly price at launch (USD)' },
        priceInForce: responseObject(
          {
            pricePerHourUsd: usd,
            since: instant,
            source: {
              type: 'string',
              enum: ['launch', 'ec2-spot-price-history', 'catalog-spot-ratio'],
              description:
                '`launch`: the price fixed at launch; `ec2-spot-price-history`: a spot price EC2 published, recorded by the reconciler; `catalog-spot-ratio`: catalog on-demand × SPOT_CATALOG_RATIO (locally, and where EC2 publishes none)',
            },
          },
          ['since'],
          {
            description:
              "GET /v1/leases/{id} only: what the instance pays per hour now (at its end, once ended). Spot follows its pool's recorded price changes; on-demand and reserved keep the launch price.",
          },
        ),
        launchedAt: instant,
        endedAt: instant,
        billedSeconds: { type: 'integer' },
        costMicroUsd: {
          ...micro,
          description: 'Every dimension: compute, its volume, the transfer once charged',
        },
        costUsd: usd,
        costByDimension: microByDimension('The instance’s cost so far by billing dimension'),
      },
      ['region', 'priceInForce', 'endedAt'],
    ),
    Lease: responseObject(
      {
        leaseId: { type: 'string' },
        status: { type: 'string', enum: LEASE_STATUSES },
        workload: { type: 'string', enum: WORKLOADS },
        gpus: { type: 'number', description: 'Whole GPUs, or 0.125, 0.25 or 0.5 of one GPU' },
        instanceType: { type: 'string' },
        requestedMode: { type: 'string', enum: RENTAL_MODES },
        project: {
          type: 'string',
          description: 'The lease’s project label, for cost attribution and budgets',
        },
        mode: { type: 'string', enum: [...RENTAL_MODES, 'mixed'] },
        createdAt: instant,
        updatedAt: instant,
        releaseRequestedAt: instant,
        releaseReason: {
          type: 'string',
          description: 'Why gpurent released the lease on its own (an idle policy, with the figures)',
        },
        endedAt: instant,
        failureReason: { type: 'string' },
        expiresAt: { ...instant, description: 'When the lease is released on its own; absent: never' },
        gpuModel: { type: 'string' },
        regions: { type: 'array', items: { type: 'string' } },
        dataRegion: { type: 'string' },
        dataGb: { type: 'number' },
        maxHourlyPrice: usd,
        placement: ref('Placement'),
        start: {
          type: 'string',
          enum: LEASE_STARTS,
          description: 'warm: started stopped machines of a warm pool; cold: launched',
        },
        secondsToRunning: { type: 'number', description: 'From the lease’s creation to RUNNING' },
        costMicroUsd: { ...micro, description: 'Every dimension: compute, storage and transfer' },
        costUsd: usd,
        costByDimension: microByDimension('The lease’s cost so far by billing dimension'),
        instances: { type: 'array', items: ref('Instance') },
        task: ref('Task'),
        priority: { type: 'integer', description: "0-1000: the order of the tenant's own waiting leases" },
        maxWaitMinutes: { type: 'integer', description: 'How long it may wait for admission' },
        queue: queueStateDoc({ description: 'While QUEUED: where the lease stands in the admission queue' }),
      },
      [
        'queue',
        'priority',
        'maxWaitMinutes',
        'requestedMode',
        'project',
        'mode',
        'releaseRequestedAt',
        'releaseReason',
        'endedAt',
        'failureReason',
        'expiresAt',
        'gpuModel',
        'regions',
        'dataRegion',
        'dataGb',
        'maxHourlyPrice',
        'placement',
        'task',
        'start',
        'secondsToRunning',
      ],
    ),
    Task: taskOpenApiSchema,
    Placement: responseObject(
      {
        region: { type: 'string' },
        zone: { type: 'string' },
        instanceType: { type: 'string' },
        instances: { type: 'integer' },
        mode: { type: 'string', enum: RENTAL_MODES },
        hourlyUsd: usd,
        reason: {
          type: 'string',
          description: 'Mode decision, pool choice and any pools that refused capacity',
        },
      },
      [],
      { description: 'Where the provisioner placed the lease, and why (also in the LeaseRunning event)' },
    ),
  },
  operations: {
    'POST /v1/leases': {
      operationId: 'createLease',
      summary: 'Ask for GPUs',
      description:
        'Queues a lease for the GPUs asked; the lease worker places and launches it (GET the lease to follow it). The Idempotency-Key makes retries safe.',
      parameters: [
        {
          name: 'Idempotency-Key',
          in: 'header',
          required: true,
          schema: { type: 'string', pattern: IDEMPOTENCY_KEY.source },
          description: 'Reuse on retry: the same key returns the first lease and launches nothing again',
        },
      ],
      requestBody: { required: true, content: jsonContent(ref('CreateLeaseRequest')) },
      responses: {
        '202': {
          description: 'Accepted; provisioning is queued',
          content: jsonContent(
            responseObject({ leaseId: { type: 'string' }, status: { type: 'string', enum: ['PENDING'] } }),
          ),
        },
        '400': errorResponse(
          'VALIDATION_FAILED, INVALID_JSON, BODY_REQUIRED, IDEMPOTENCY_KEY_REQUIRED, UNSUPPORTED_INSTANCE_TYPE, UNKNOWN_REGION, UNKNOWN_GPU_MODEL, UNKNOWN_IMAGE, MAX_PRICE_BELOW_EVERY_POOL, TASK_TOO_LARGE (the lease with its task would pass the stored size limit; the message gives both), or for a task deadline DEADLINE_IN_PAST, DEADLINE_BEFORE_WORK, DEADLINE_WITHOUT_TASK or DEADLINE_WITH_ON_DEMAND (details name the field)',
        ),
        '402': errorResponse(
          'BUDGET_EXCEEDED: a block-new-leases budget in the lease’s scope (tenant or project) has reached its limit; details name the budget',
        ),
        '409': errorResponse('REQUEST_IN_PROGRESS: the same key is still being processed'),
        '422': errorResponse('IDEMPOTENCY_KEY_REUSED'),
        '429': errorResponse(
          'WAITING_LEASES_CAP_REACHED: the tenant has maxWaitingLeases leases waiting to start, PENDING or QUEUED (GET /v1/limits); the message gives the cap and how many wait; nothing is written. Retry after Retry-After seconds (they clear as the leases start or end), or release one',
        ),
        ...authErrors,
      },
    },
    'GET /v1/leases': {
      operationId: 'listLeases',
      summary: "List the tenant's leases, newest first",
      description:
        "A page of the tenant's leases, newest first; pass nextCursor back as cursor for the next page.",
      parameters: pageParameters,
      responses: {
        '200': {
          description: 'A page of leases',
          content: jsonContent(
            responseObject(
              { leases: { type: 'array', items: ref('Lease') }, nextCursor: { type: 'string' } },
              ['nextCursor'],
            ),
          ),
        },
        '400': errorResponse('VALIDATION_FAILED or INVALID_CURSOR'),
        ...authErrors,
      },
    },
    'GET /v1/leases/{id}': {
      operationId: 'getLease',
      summary: 'A lease with its instances and cost so far',
      description:
        'The lease, its placement, its instances with the price each pays now, and the metered cost so far.',
      parameters: [leaseIdDoc()],
      responses: {
        '200': { description: 'The lease', content: jsonContent(ref('Lease')) },
        '400': errorResponse('INVALID_LEASE_ID'),
        '404': errorResponse('LEASE_NOT_FOUND'),
        ...authErrors,
      },
    },
    'DELETE /v1/leases/{id}': {
      operationId: 'releaseLease',
      summary: 'Release: terminate the instances and close the bill',
      description:
        'Asks for the lease to be released: its instances are terminated and billing stops at their end. Releasing an ended lease changes nothing.',
      parameters: [leaseIdDoc()],
      responses: {
        '202': { description: 'Releasing (or already ended)', content: jsonContent(ref('Lease')) },
        '400': errorResponse('INVALID_LEASE_ID'),
        '404': errorResponse('LEASE_NOT_FOUND'),
        ...authErrors,
      },
    },
  },
});
