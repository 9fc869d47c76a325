import { LEASE_STATUSES, RENTAL_MODES } from '../../shared/domain/lease';
import { scalingGroupSpecSchema } from '../../shared/domain/scaling';
import * as z from '../../shared/zod';

/** The building blocks openapi.ts defines, handed in so both parts of the document share them. */
export interface OpenApiParts {
  readonly ref: (name: string) => object;
  readonly jsonContent: (schema: object) => object;
  readonly errorResponse: (description: string) => object;
  readonly instant: object;
  readonly authErrors: object;
  readonly leaseIdParameter: object;
}

/** The OpenAPI pieces of the scaling-group and GPU-metrics routes, merged into openapi.ts. */
export function scalingOpenApi({
  ref,
  jsonContent,
  errorResponse,
  instant,
  authErrors,
  leaseIdParameter,
}: OpenApiParts) {
  const groupName = {
    name: 'name',
    in: 'path',
    required: true,
    schema: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]{0,62}$' },
  };
  const nullableNumber = { type: ['number', 'null'] };
  const evaluation = {
    type: 'object',
    properties: {
      at: instant,
      action: { type: 'string', enum: ['scale-out', 'scale-in', 'none'] },
      from: { type: 'integer' },
      to: { type: 'integer' },
      reason: {
        type: 'string',
        description: 'Which rule held (or why none did) and the datapoints behind it',
      },
    },
  };
  const series = {
    type: 'object',
    properties: {
      unit: { type: 'string' },
      avg: nullableNumber,
      p95: { ...nullableNumber, description: '95th percentile of the period values (nearest rank)' },
      max: nullableNumber,
      datapoints: {
        type: 'array',
        items: { type: 'object', properties: { at: instant, value: { type: 'number' } } },
      },
    },
  };

  const schemas = {
    ScalingGroupSummary: {
      type: 'object',
      properties: {
        name: { type: 'string' },
        status: { type: 'string', enum: ['ACTIVE', 'DELETING'] },
        instanceType: { type: 'string' },
        workload: { type: 'string' },
        min: { type: 'integer' },
        max: { type: 'integer' },
        desired: { type: 'integer', description: 'The size the group converges to' },
        members: { type: 'integer', description: 'Member leases recorded on the group (any status)' },
        lastEvaluation: evaluation,
        updatedAt: instant,
      },
    },
    ScalingGroupSpec: z.toJSONSchema(scalingGroupSpecSchema, { target: 'draft-2020-12', io: 'input' }),
    ScalingGroup: {
      type: 'object',
      properties: {
        name: { type: 'string' },
        status: { type: 'string', enum: ['ACTIVE', 'DELETING'] },
        spec: ref('ScalingGroupSpec'),
        desired: { type: 'integer', description: 'The size the group converges to' },
        size: { type: 'integer', description: 'Members pending or running, booting ones included' },
        members: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              leaseId: { type: 'string' },
              status: { type: 'string', enum: LEASE_STATUSES },
              mode: { type: 'string', enum: RENTAL_MODES },
              booting: {
                type: 'boolean',
                description: 'Within its warm-up: never removed, metrics not judged',
              },
              createdAt: instant,
              launchedAt: instant,
              instanceIds: { type: 'array', items: { type: 'string' } },
            },
          },
        },
        lastEvaluation: evaluation,
        decisions: {
          type: 'array',
          description: 'The last decisions that changed something, newest first',
          items: {
            ...evaluation,
            properties: {
              ...evaluation.properties,
              observations: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    rule: { type: 'string', enum: ['scaleOut', 'scaleIn'] },
                    metric: { type: 'string' },
                    values: { type: 'array', items: { type: 'number' } },
                  },
                },
              },
              launched: { type: 'array', items: { type: 'string' } },
              released: { type: 'array', items: { type: 'string' } },
            },
          },
        },
        createdAt: instant,
        updatedAt: instant,
      },
    },
    LeaseGpuMetrics: {
      type: 'object',
      properties: {
        leaseId: { type: 'string' },
        from: instant,
        to: instant,
        period: { type: 'integer', enum: [60, 300, 3600] },
        instances: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              instanceId: { type: 'string' },
              gpus: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    index: { type: 'integer' },
                    utilization: series,
                    memoryUsed: series,
                    temperature: series,
                    power: series,
                    health: {
                      type: 'object',
                      description:
                        'As of `to`, for running GPUs: hot above the limit (85 °C), silent after 5 minutes without data',
                      properties: {
                        status: { type: 'string', enum: ['ok', 'hot', 'silent'] },
                        reason: { type: 'string' },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  };

  const paths = {
    '/v1/leases/{id}/metrics': {
      get: {
        summary: "GPU utilization, memory, temperature and power of a lease's instances",
        parameters: [
          leaseIdParameter,
          { name: 'from', in: 'query', schema: instant, description: 'Start; default: one hour before to' },
          { name: 'to', in: 'query', schema: instant, description: 'End; default: now' },
          {
            name: 'period',
            in: 'query',
            schema: { type: 'string', enum: ['60', '300', '3600'], default: '60' },
            description: 'Seconds per datapoint; at most 1,440 datapoints per series',
          },
        ],
        responses: {
          '200': { description: 'Series per instance and GPU', content: jsonContent(ref('LeaseGpuMetrics')) },
          '400': errorResponse('INVALID_LEASE_ID or VALIDATION_FAILED'),
          '404': errorResponse('LEASE_NOT_FOUND'),
          ...authErrors,
        },
      },
    },
    '/v1/scaling-groups': {
      get: {
        summary: "The tenant's scaling groups by name: bounds, desired size, members and the last evaluation",
        responses: {
          '200': {
            description: 'Groups',
            content: jsonContent({
              type: 'object',
              properties: { groups: { type: 'array', items: ref('ScalingGroupSummary') } },
            }),
          },
          ...authErrors,
        },
      },
    },
    '/v1/scaling-groups/{name}': {
      put: {
        summary: 'Create a scaling group or replace its spec',
        parameters: [groupName],
        requestBody: { required: true, content: jsonContent(ref('ScalingGroupSpec')) },
        responses: {
          '200': { description: 'Replaced', content: jsonContent(ref('ScalingGroup')) },
          '201': {
            description: 'Created; members launch at the next evaluation',
            content: jsonContent(ref('ScalingGroup')),
          },
          '400': errorResponse(
            'INVALID_SCALING_GROUP_NAME, VALIDATION_FAILED, UNSUPPORTED_INSTANCE_TYPE, INVALID_JSON or BODY_REQUIRED',
          ),
          '409': errorResponse('SCALING_GROUP_DELETING'),
          ...authErrors,
        },
      },
      get: {
        summary: 'A scaling group: size, members, the last decisions with their reasons and metric values',
        parameters: [groupName],
        responses: {
          '200': { description: 'The group', content: jsonContent(ref('ScalingGroup')) },
          '400': errorResponse('INVALID_SCALING_GROUP_NAME'),
          '404': errorResponse('SCALING_GROUP_NOT_FOUND'),
          ...authErrors,
        },
      },
      delete: {
        summary: 'Drain the group: release every member, then remove it',
        parameters: [groupName],
        responses: {
          '202': {
            description: 'Deleted; the released leases are terminated and billed like any other',
            content: jsonContent({
              type: 'object',
              properties: {
                name: { type: 'string' },
                status: { type: 'string', enum: ['DELETED'] },
                released: { type: 'array', items: { type: 'string' } },
              },
            }),
          },
          '400': errorResponse('INVALID_SCALING_GROUP_NAME'),
          '404': errorResponse('SCALING_GROUP_NOT_FOUND'),
          ...authErrors,
        },
      },
    },
  };
  return { schemas, paths };
}
