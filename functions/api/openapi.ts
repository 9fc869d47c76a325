import { LEASE_STATUSES, RENTAL_MODES, WORKLOADS } from '../../shared/domain/lease';
import { USAGE_GROUPINGS } from '../../shared/domain/usage';
import * as z from '../../shared/zod';
import { adminListPaths, adminListSchemas } from './openapi-admin';
import { auditPaths, auditSchemas, utilizationSchema } from './openapi-audit';
import { budgetPaths, budgetSchemas } from './openapi-budgets';
import {
  adminErrors,
  authErrors,
  errorResponse,
  instant,
  jsonContent,
  leaseIdParameter,
  micro,
  pageParameters,
  rangeParameters,
  ref,
  usd,
} from './openapi-parts';
import { scalingOpenApi } from './openapi-scaling';
import { settingsPaths, settingsSchemas } from './openapi-settings';
import { imageVersionBody } from './routes/images';
import { createLeaseBody } from './routes/leases';
import { reservationBody } from './routes/reservations';

const scaling = scalingOpenApi({ ref, jsonContent, errorResponse, instant, authErrors, leaseIdParameter });
const adminNameParameter = (name: string) => ({
  name,
  in: 'path',
  required: true,
  schema: { type: 'string', pattern: '^[a-z0-9._-]{1,64}$' },
});

/**
 * The API contract, built from the validators themselves; `npm run openapi` writes it to
 * docs/openapi.json, which GET /v1/openapi.json serves (a test keeps the two equal).
 */
export const openApiDocument = {
  openapi: '3.1.0',
  info: {
    title: 'gpurent API',
    version: '1.0.0',
    description:
      'Rent GPU capacity on AWS. Every route except health and this document needs `Authorization: Bearer <JWT>`; the tenant comes from the `custom:tenant` claim. Errors are `{error: {code, message, details}}`.',
  },
  servers: [{ url: '/' }],
  components: {
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
    schemas: {
      CreateLeaseRequest: z.toJSONSchema(createLeaseBody, { target: 'draft-2020-12', io: 'input' }),
      Instance: {
        type: 'object',
        properties: {
          instanceId: { type: 'string' },
          instanceType: { type: 'string' },
          mode: { type: 'string', enum: RENTAL_MODES },
          region: { type: 'string' },
          zone: { type: 'string' },
          pricePerHourUsd: { ...usd, description: 'The hourly price at launch (USD)' },
          priceInForce: {
            type: 'object',
            description:
              "GET /v1/leases/{id} only: what the instance pays per hour now (at its end, once ended). Spot follows its pool's recorded price changes; on-demand and reserved keep the launch price.",
            properties: {
              pricePerHourUsd: usd,
              since: instant,
              source: {
                type: 'string',
                enum: ['launch', 'ec2-spot-price-history', 'catalog-spot-ratio'],
                description:
                  '`launch`: the price fixed at launch; `ec2-spot-price-history`: a spot price EC2 published, recorded by the reconciler; `catalog-spot-ratio`: catalog on-demand × SPOT_CATALOG_RATIO (locally, and where EC2 publishes none)',
              },
            },
          },
          launchedAt: instant,
          endedAt: instant,
          billedSeconds: { type: 'integer' },
          costMicroUsd: micro,
          costUsd: usd,
        },
      },
      Lease: {
        type: 'object',
        required: [
          'leaseId',
          'status',
          'workload',
          'gpus',
          'instanceType',
          'costMicroUsd',
          'costUsd',
          'instances',
        ],
        properties: {
          leaseId: { type: 'string' },
          status: { type: 'string', enum: LEASE_STATUSES },
          workload: { type: 'string', enum: WORKLOADS },
          gpus: { type: 'integer' },
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
          endedAt: instant,
          failureReason: { type: 'string' },
          expiresAt: { ...instant, description: 'When the lease is released on its own; absent: never' },
          gpuModel: { type: 'string' },
          regions: { type: 'array', items: { type: 'string' } },
          dataRegion: { type: 'string' },
          dataGb: { type: 'number' },
          maxHourlyPrice: usd,
          placement: ref('Placement'),
          costMicroUsd: micro,
          costUsd: usd,
          instances: { type: 'array', items: ref('Instance') },
        },
      },
      ReservationRequest: z.toJSONSchema(reservationBody, { target: 'draft-2020-12', io: 'input' }),
      Reservation: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          instanceType: { type: 'string' },
          region: { type: 'string' },
          zone: { type: 'string' },
          count: { type: 'integer' },
          gpusPerInstance: { type: 'integer' },
          hourlyRateUsd: usd,
          start: instant,
          end: instant,
          capacityReservationId: { type: 'string' },
          committedGpus: { type: 'integer' },
          usedGpus: { type: 'integer', description: 'GPUs leases hold on it now' },
          leases: { type: 'integer' },
          idleRecordedUntil: { ...instant, description: 'Idle reserved time is recorded up to here' },
        },
      },
      ImageVersionRequest: z.toJSONSchema(imageVersionBody, { target: 'draft-2020-12', io: 'input' }),
      ImageVersion: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          version: { type: 'string' },
          amis: { type: 'object', additionalProperties: { type: 'string' } },
          launchTemplateVersions: { type: 'object', additionalProperties: { type: 'string' } },
          createdAt: instant,
        },
      },
      ImageChange: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          current: { type: 'string' },
          previous: { type: 'string' },
          note: { type: 'string', description: 'What the change does: new launches only' },
        },
      },
      Placement: {
        type: 'object',
        description: 'Where the provisioner placed the lease, and why (also in the LeaseRunning event)',
        properties: {
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
      },
      Pool: {
        type: 'object',
        properties: {
          region: { type: 'string' },
          zone: { type: 'string' },
          instanceType: { type: 'string' },
          mode: { type: 'string', enum: ['on-demand', 'spot'] },
          gpusPerInstance: { type: 'integer' },
          pricePerHourUsd: usd,
          priceSource: {
            type: 'string',
            enum: ['catalog', 'ec2-spot-price-history', 'catalog-spot-ratio', 'commitment'],
          },
          mark: { type: 'string', enum: ['available', 'no-capacity', 'refused-recently'] },
          rank: {
            type: ['integer', 'null'],
            description: 'Order choosePool tries the pool in for the sample, per mode',
          },
          instances: { type: 'integer' },
          hourlyUsd: usd,
          scoreUsd: { type: 'number', description: 'Hourly cost + latency penalty + data transfer, USD' },
          notEligible: { type: 'string' },
        },
      },
      Usage: {
        type: 'object',
        description:
          'Read from daily rollups written with every charge; the range is widened to the whole UTC days it touches, and from/to say which.',
        properties: {
          from: instant,
          to: instant,
          granularity: { type: 'string', enum: ['day'] },
          groupBy: { type: 'string', enum: USAGE_GROUPINGS },
          seconds: {
            type: 'integer',
            description:
              'Instance-seconds billed (a multi-GPU instance counts once; GPU-hours are in /v1/profile)',
          },
          costMicroUsd: micro,
          costUsd: usd,
          groups: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                key: { type: 'string' },
                seconds: { type: 'integer', description: 'Instance-seconds billed' },
                costMicroUsd: micro,
                costUsd: usd,
              },
            },
          },
        },
      },
      ...budgetSchemas,
      ...scaling.schemas,
      ...auditSchemas,
      ...settingsSchemas,
      ...adminListSchemas,
      Error: {
        type: 'object',
        properties: {
          error: {
            type: 'object',
            required: ['code', 'message'],
            properties: {
              code: { type: 'string', description: 'Stable machine-readable code, e.g. VALIDATION_FAILED' },
              message: { type: 'string', description: 'What is wrong and how to fix it' },
              details: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: { path: { type: 'string' }, message: { type: 'string' } },
                },
              },
            },
          },
        },
      },
    },
  },
  security: [{ bearer: [] }],
  paths: {
    '/v1/health': {
      get: { security: [], summary: 'Liveness', responses: { '200': { description: 'Up' } } },
    },
    '/v1/openapi.json': {
      get: { security: [], summary: 'This document', responses: { '200': { description: 'OpenAPI 3.1' } } },
    },
    '/v1/leases': {
      post: {
        summary: 'Ask for GPUs',
        parameters: [
          {
            name: 'Idempotency-Key',
            in: 'header',
            required: true,
            schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
            description: 'Reuse on retry: the same key returns the first lease and launches nothing again',
          },
        ],
        requestBody: { required: true, content: jsonContent(ref('CreateLeaseRequest')) },
        responses: {
          '202': {
            description: 'Accepted; provisioning is queued',
            content: jsonContent({
              type: 'object',
              properties: { leaseId: { type: 'string' }, status: { type: 'string', enum: ['PENDING'] } },
            }),
          },
          '400': errorResponse(
            'VALIDATION_FAILED, INVALID_JSON, BODY_REQUIRED, IDEMPOTENCY_KEY_REQUIRED, UNSUPPORTED_INSTANCE_TYPE, UNKNOWN_REGION, UNKNOWN_GPU_MODEL, UNKNOWN_IMAGE or MAX_PRICE_BELOW_EVERY_POOL',
          ),
          '402': errorResponse(
            'BUDGET_EXCEEDED: a block-new-leases budget in the lease’s scope (tenant or project) has reached its limit; details name the budget',
          ),
          '409': errorResponse('REQUEST_IN_PROGRESS: the same key is still being processed'),
          '422': errorResponse('IDEMPOTENCY_KEY_REUSED'),
          ...authErrors,
        },
      },
      get: {
        summary: "List the tenant's leases, newest first",
        parameters: pageParameters,
        responses: {
          '200': {
            description: 'A page of leases',
            content: jsonContent({
              type: 'object',
              properties: { leases: { type: 'array', items: ref('Lease') }, nextCursor: { type: 'string' } },
            }),
          },
          '400': errorResponse('VALIDATION_FAILED or INVALID_CURSOR'),
          ...authErrors,
        },
      },
    },
    '/v1/leases/{id}': {
      get: {
        summary: 'A lease with its instances and cost so far',
        parameters: [leaseIdParameter],
        responses: {
          '200': { description: 'The lease', content: jsonContent(ref('Lease')) },
          '400': errorResponse('INVALID_LEASE_ID'),
          '404': errorResponse('LEASE_NOT_FOUND'),
          ...authErrors,
        },
      },
      delete: {
        summary: 'Release: terminate the instances and close the bill',
        parameters: [leaseIdParameter],
        responses: {
          '202': { description: 'Releasing (or already ended)', content: jsonContent(ref('Lease')) },
          '400': errorResponse('INVALID_LEASE_ID'),
          '404': errorResponse('LEASE_NOT_FOUND'),
          ...authErrors,
        },
      },
    },
    '/v1/usage': {
      get: {
        summary: 'Metered usage in a time range, grouped',
        parameters: [
          ...rangeParameters,
          {
            name: 'groupBy',
            in: 'query',
            schema: { type: 'string', enum: USAGE_GROUPINGS, default: 'mode' },
          },
        ],
        responses: {
          '200': { description: 'Usage summary', content: jsonContent(ref('Usage')) },
          '400': errorResponse('VALIDATION_FAILED'),
          ...authErrors,
        },
      },
    },
    '/v1/pools': {
      get: {
        summary: 'Admin: every pool of the GPU regions, priced and ranked for a sample request',
        parameters: [
          { name: 'gpus', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 8, default: 1 } },
          { name: 'gpuModel', in: 'query', schema: { type: 'string' } },
          { name: 'instanceType', in: 'query', schema: { type: 'string' } },
          { name: 'workload', in: 'query', schema: { type: 'string', enum: WORKLOADS, default: 'batch' } },
          { name: 'regions', in: 'query', schema: { type: 'string' }, description: 'Comma-separated' },
          { name: 'dataRegion', in: 'query', schema: { type: 'string' } },
          { name: 'dataGb', in: 'query', schema: { type: 'number' } },
        ],
        responses: {
          '200': {
            description: 'Pools; spotPriceNote says how spot is priced here',
            content: jsonContent({
              type: 'object',
              properties: {
                sample: { type: 'object' },
                spotPriceNote: { type: 'string' },
                pools: { type: 'array', items: ref('Pool') },
              },
            }),
          },
          '400': errorResponse(
            'VALIDATION_FAILED, UNKNOWN_REGION, UNKNOWN_GPU_MODEL or UNSUPPORTED_INSTANCE_TYPE',
          ),
          ...adminErrors,
        },
      },
    },
    '/v1/admin/reservations/{id}': {
      put: {
        summary: 'Admin: create or redefine a reserved commitment',
        parameters: [adminNameParameter('id')],
        requestBody: { required: true, content: jsonContent(ref('ReservationRequest')) },
        responses: {
          '200': { description: 'The commitment', content: jsonContent(ref('Reservation')) },
          '400': errorResponse(
            'VALIDATION_FAILED, INVALID_JSON, BODY_REQUIRED, INVALID_RESERVATION_ID, UNKNOWN_REGION or INVALID_RESERVATION',
          ),
          '403': errorResponse('ADMIN_REQUIRED'),
          '409': errorResponse('RESERVATION_IN_USE: fewer GPUs than leases hold'),
        },
      },
      get: {
        summary: 'Admin: a reserved commitment with its use',
        parameters: [adminNameParameter('id')],
        responses: {
          '200': { description: 'The commitment', content: jsonContent(ref('Reservation')) },
          '400': errorResponse('INVALID_RESERVATION_ID'),
          '403': errorResponse('ADMIN_REQUIRED'),
          '404': errorResponse('RESERVATION_NOT_FOUND'),
        },
      },
      delete: {
        summary: 'Admin: delete a reserved commitment no lease holds',
        parameters: [adminNameParameter('id')],
        responses: {
          '204': { description: 'Deleted' },
          '400': errorResponse('INVALID_RESERVATION_ID'),
          '403': errorResponse('ADMIN_REQUIRED'),
          '404': errorResponse('RESERVATION_NOT_FOUND'),
          '409': errorResponse('RESERVATION_IN_USE'),
        },
      },
    },
    '/v1/admin/images/{name}/versions/{version}': {
      put: {
        summary: 'Admin: register an image version (an AMI per GPU region); versions are immutable',
        parameters: [adminNameParameter('name'), adminNameParameter('version')],
        requestBody: { required: true, content: jsonContent(ref('ImageVersionRequest')) },
        responses: {
          '200': {
            description: 'The version and its launch template versions',
            content: jsonContent(ref('ImageVersion')),
          },
          '400': errorResponse(
            'VALIDATION_FAILED, INVALID_JSON, BODY_REQUIRED, INVALID_IMAGE_NAME or UNKNOWN_REGION',
          ),
          '403': errorResponse('ADMIN_REQUIRED'),
          '409': errorResponse('IMAGE_VERSION_EXISTS: the version exists with other AMIs'),
        },
      },
    },
    '/v1/admin/images/{name}/versions/{version}/promote': {
      post: {
        summary: 'Admin: make this version the one new launches use',
        parameters: [adminNameParameter('name'), adminNameParameter('version')],
        responses: {
          '200': { description: 'The image now', content: jsonContent(ref('ImageChange')) },
          '400': errorResponse('INVALID_IMAGE_NAME'),
          '403': errorResponse('ADMIN_REQUIRED'),
          '404': errorResponse('IMAGE_VERSION_NOT_FOUND'),
        },
      },
    },
    '/v1/admin/images/{name}/rollback': {
      post: {
        summary: 'Admin: put the previously promoted version back (new launches only)',
        parameters: [adminNameParameter('name')],
        responses: {
          '200': { description: 'The image now', content: jsonContent(ref('ImageChange')) },
          '400': errorResponse('INVALID_IMAGE_NAME'),
          '403': errorResponse('ADMIN_REQUIRED'),
          '409': errorResponse('NOTHING_TO_ROLL_BACK'),
        },
      },
    },
    '/v1/admin/images/{name}': {
      get: {
        summary: 'Admin: an image, every version registered, the current one and the promotion history',
        parameters: [adminNameParameter('name')],
        responses: {
          '200': {
            description: 'The image: ImageSummary with history and the current version in full',
            content: jsonContent({
              allOf: [
                ref('ImageSummary'),
                {
                  type: 'object',
                  properties: {
                    history: { type: 'array', items: { type: 'string' } },
                    currentVersion: ref('ImageVersion'),
                  },
                },
              ],
            }),
          },
          '400': errorResponse('INVALID_IMAGE_NAME'),
          '403': errorResponse('ADMIN_REQUIRED'),
          '404': errorResponse('IMAGE_NOT_FOUND: no version of it is registered'),
        },
      },
    },
    '/v1/usage/export': {
      get: {
        summary: 'Leases that ran in a time range, as CSV (input of `npm run simulate`)',
        parameters: rangeParameters,
        responses: {
          '200': {
            description: 'lease_id,workload,mode,instance_type,gpus,started_at,ended_at,project',
            content: { 'text/csv': { schema: { type: 'string' } } },
          },
          '400': errorResponse('VALIDATION_FAILED'),
          ...authErrors,
        },
      },
    },
    '/v1/profile': {
      get: {
        summary:
          'Demand profile per UTC day: GPU-hours, average and peak concurrent GPUs, wait to RUNNING, GPU utilization',
        parameters: rangeParameters,
        responses: {
          '200': {
            description:
              'days[]: {day, gpuHours, avgConcurrentGpus, peakConcurrentGpus, waitSeconds: {leases, p50, p95}, byWorkload, byMode, gpuUtilization}; gpuUtilization (the range and each day) from the GPU telemetry, gpuUtilizationNote says how it is computed',
            content: jsonContent({
              type: 'object',
              properties: {
                from: instant,
                to: instant,
                gpuUtilization: utilizationSchema,
                gpuUtilizationNote: { type: 'string' },
                days: { type: 'array', items: { type: 'object' } },
              },
            }),
          },
          '400': errorResponse('VALIDATION_FAILED'),
          ...authErrors,
        },
      },
    },
    ...budgetPaths,
    ...scaling.paths,
    ...auditPaths,
    ...settingsPaths,
    ...adminListPaths,
  },
} as const;
