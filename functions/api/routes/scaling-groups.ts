import { LEASE_STATUSES, RENTAL_MODES } from '../../../shared/domain/lease';
import { GROUP_NAME_PATTERN, isLive, scalingGroupSpecSchema } from '../../../shared/domain/scaling';
import type { LastEvaluation, ScalingGroup } from '../../../shared/ports/scaling-groups';
import type { ScalingGroupView } from '../../../shared/usecases/scaling-groups';
import { type ApiEvent, type ApiResult, json, parseJsonBody, tenantOf, validate } from '../http';
import { queueBody } from '../lease-view';
import {
  authErrors,
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
import { queueStateDoc } from './leases';

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

const groupName = pathParameter(
  'name',
  GROUP_NAME_PATTERN,
  'INVALID_SCALING_GROUP_NAME',
  (name) =>
    `"${name}" is not a scaling group name: 1-63 lowercase letters, digits or hyphens, starting with a letter or digit`,
);

/** An evaluation with its instant as an ISO date-time, and its waiting members' places as a lease shows its own. */
const stamped = <T extends LastEvaluation>({ atMs, waiting, ...rest }: T) => ({
  at: iso(atMs),
  ...rest,
  waiting: waiting?.map(({ leaseId, ...queue }) => ({ leaseId, ...queueBody(queue) })),
});

/** The API's shape of a group: spec, size, members and the last decisions with their reasons and inputs. */
function groupBody({ group, members, decisions }: ScalingGroupView) {
  const live = members.filter(isLive);
  return {
    name: group.name,
    status: group.status,
    spec: group.spec,
    desired: group.desired,
    size: live.length,
    members: members.map((m) => ({
      leaseId: m.leaseId,
      status: m.status,
      mode: m.mode,
      booting: m.booting,
      createdAt: iso(m.createdAtMs),
      launchedAt: iso(m.launchedAtMs),
      instanceIds: m.instanceIds,
      queue: m.queue && queueBody(m.queue),
    })),
    lastEvaluation: group.lastEvaluation && stamped(group.lastEvaluation),
    decisions: decisions.map(stamped),
    createdAt: iso(group.createdAtMs),
    updatedAt: iso(group.updatedAtMs),
  };
}

/** A group as the list shows it: its bounds and sizes, without reading its members' leases. */
function groupSummary(group: ScalingGroup) {
  return {
    name: group.name,
    status: group.status,
    instanceType: group.spec.instanceType,
    workload: group.spec.workload,
    min: group.spec.min,
    max: group.spec.max,
    desired: group.desired,
    members: group.members.length,
    lastEvaluation: group.lastEvaluation && stamped(group.lastEvaluation),
    updatedAt: iso(group.updatedAtMs),
  };
}

export async function listScalingGroups(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  const groups = await ctx.scaling.listGroups(tenantOf(event));
  return json(200, { groups: groups.map(groupSummary) });
}

export async function putScalingGroup(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  const tenantId = tenantOf(event);
  const name = pathValue(event, groupName);
  const spec = validate(scalingGroupSpecSchema, parseJsonBody(event), 'body');
  const { created, view } = await ctx.scaling.putGroup(tenantId, name, spec);
  return json(
    created ? 201 : 200,
    groupBody(view),
    created ? { location: `/v1/scaling-groups/${name}` } : {},
  );
}

export async function getScalingGroup(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  const tenantId = tenantOf(event);
  return json(200, groupBody(await ctx.scaling.getGroup(tenantId, pathValue(event, groupName))));
}

export async function deleteScalingGroup(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  const tenantId = tenantOf(event);
  const name = pathValue(event, groupName);
  const released = await ctx.scaling.deleteGroup(tenantId, name);
  return json(202, { name, status: 'DELETED', released });
}

export const scalingGroupRoutes = {
  'GET /v1/scaling-groups': { handle: listScalingGroups },
  'PUT /v1/scaling-groups/{name}': { handle: putScalingGroup },
  'GET /v1/scaling-groups/{name}': { handle: getScalingGroup },
  'DELETE /v1/scaling-groups/{name}': { handle: deleteScalingGroup },
} as const satisfies Routes;

export const scalingGroupOpenApi = (): OpenApiGroup<keyof typeof scalingGroupRoutes> => {
  const nameParameter = pathParameterDoc(groupName);
  const evaluationProperties = {
    at: instant,
    action: { type: 'string', enum: ['scale-out', 'scale-in', 'none'] },
    from: { type: 'integer' },
    to: { type: 'integer' },
    reason: {
      type: 'string',
      description:
        'Which rule held (or why none did) and the datapoints behind it; the members waiting in the admission queue, with reason and position',
    },
    waiting: {
      type: 'array',
      description:
        'Members whose leases wait in the admission queue (their tenant’s quota, capacity or the account’s EC2 quota): the group counts them as asked for and adds none while any waits',
      items: queueStateDoc({}, { leaseId: { type: 'string' } }),
    },
  };
  const evaluation = responseObject(evaluationProperties, ['waiting']);
  return {
    tag: {
      name: 'Scaling groups',
      description: 'Groups of leases the scaling evaluator keeps between bounds on GPU metrics',
    },
    schemas: {
      ScalingGroupSummary: responseObject(
        {
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
        ['lastEvaluation'],
      ),
      ScalingGroupSpec: jsonSchema(scalingGroupSpecSchema),
      ScalingGroup: responseObject(
        {
          name: { type: 'string' },
          status: { type: 'string', enum: ['ACTIVE', 'DELETING'] },
          spec: ref('ScalingGroupSpec'),
          desired: { type: 'integer', description: 'The size the group converges to' },
          size: { type: 'integer', description: 'Members pending or running, booting ones included' },
          members: {
            type: 'array',
            items: responseObject(
              {
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
                queue: queueStateDoc({
                  description: 'While QUEUED: where the member’s lease stands in the admission queue',
                }),
              },
              ['launchedAt', 'queue'],
            ),
          },
          lastEvaluation: evaluation,
          decisions: {
            type: 'array',
            description: 'The last decisions that changed something, newest first',
            items: responseObject(
              {
                ...evaluationProperties,
                observations: {
                  type: 'array',
                  items: responseObject({
                    rule: { type: 'string', enum: ['scaleOut', 'scaleIn'] },
                    metric: { type: 'string' },
                    values: { type: 'array', items: { type: 'number' } },
                  }),
                },
                launched: { type: 'array', items: { type: 'string' } },
                released: { type: 'array', items: { type: 'string' } },
              },
              ['waiting'],
            ),
          },
          createdAt: instant,
          updatedAt: instant,
        },
        ['lastEvaluation'],
      ),
    },
    operations: {
      'GET /v1/scaling-groups': {
        operationId: 'listScalingGroups',
        summary: "The tenant's scaling groups by name: bounds, desired size, members and the last evaluation",
        description:
          'Each group as a summary, without reading its members’ leases; GET a group for its members.',
        responses: {
          '200': {
            description: 'Groups',
            content: jsonContent(
              responseObject({ groups: { type: 'array', items: ref('ScalingGroupSummary') } }),
            ),
          },
          ...authErrors,
        },
      },
      'PUT /v1/scaling-groups/{name}': {
        operationId: 'putScalingGroup',
        summary: 'Create a scaling group or replace its spec',
        description:
          'Stores the spec; the scaling evaluator launches or releases member leases at its next evaluation to converge on the desired size.',
        parameters: [nameParameter],
        requestBody: { required: true, content: jsonContent(ref('ScalingGroupSpec')) },
        responses: {
          '200': { description: 'Replaced', content: jsonContent(ref('ScalingGroup')) },
          '201': {
            description: 'Created; members launch at the next evaluation',
            content: jsonContent(ref('ScalingGroup')),
          },
          '400': errorResponse(
            'INVALID_SCALING_GROUP_NAME, VALIDATION_FAILED, UNSUPPORTED_INSTANCE_TYPE, METRIC_NAMESPACE_NOT_OWNED (a custom condition’s namespace is not under gpurent/<tenant>/; details name the field), INVALID_JSON or BODY_REQUIRED',
          ),
          '409': errorResponse(
            'SCALING_GROUP_DELETING, or SCALING_GROUP_CAP_REACHED: a new group would pass the tenant’s maxScalingGroups (GET /v1/limits); delete one first',
          ),
          ...authErrors,
        },
      },
      'GET /v1/scaling-groups/{name}': {
        operationId: 'getScalingGroup',
        summary: 'A scaling group: size, members, the last decisions with their reasons and metric values',
        description:
          'The spec, the desired and current size, each member lease, and the last decisions that changed something with the metric values behind them.',
        parameters: [nameParameter],
        responses: {
          '200': { description: 'The group', content: jsonContent(ref('ScalingGroup')) },
          '400': errorResponse('INVALID_SCALING_GROUP_NAME'),
          '404': errorResponse('SCALING_GROUP_NOT_FOUND'),
          ...authErrors,
        },
      },
      'DELETE /v1/scaling-groups/{name}': {
        operationId: 'deleteScalingGroup',
        summary: 'Drain the group: release every member, then remove it',
        description: 'Releases every member lease (billed like any other release) and removes the group.',
        parameters: [nameParameter],
        responses: {
          '202': {
            description: 'Deleted; the released leases are terminated and billed like any other',
            content: jsonContent(
              responseObject({
                name: { type: 'string' },
                status: { type: 'string', enum: ['DELETED'] },
                released: { type: 'array', items: { type: 'string' } },
              }),
            ),
          },
          '400': errorResponse('INVALID_SCALING_GROUP_NAME'),
          '404': errorResponse('SCALING_GROUP_NOT_FOUND'),
          ...authErrors,
        },
      },
    },
  };
};
