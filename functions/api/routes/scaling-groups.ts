import { GROUP_NAME_PATTERN, scalingGroupSpecSchema } from '../../../shared/domain/scaling';
import type { ScalingGroup } from '../../../shared/ports/scaling-groups';
import type { ScalingGroupView } from '../../../shared/usecases/scaling-groups';
import { ApiError, type ApiEvent, type ApiResult, json, parseJsonBody, tenantOf, validate } from '../http';
import type { ApiContext } from './context';

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

function groupNameOf(event: ApiEvent): string {
  const name = event.pathParameters?.name ?? '';
  if (!GROUP_NAME_PATTERN.test(name)) {
    throw new ApiError(
      400,
      'INVALID_SCALING_GROUP_NAME',
      `"${name}" is not a scaling group name: 1-63 lowercase letters, digits or hyphens, starting with a letter or digit`,
    );
  }
  return name;
}

/** An evaluation with its instant as an ISO date-time. */
const stamped = <T extends { atMs: number }>({ atMs, ...rest }: T) => ({ at: iso(atMs), ...rest });

/** The API's shape of a group: spec, size, members and the last decisions with their reasons and inputs. */
function groupBody({ group, members, decisions }: ScalingGroupView) {
  const live = members.filter((m) => m.status === 'PENDING' || m.status === 'RUNNING');
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
  const name = groupNameOf(event);
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
  return json(200, groupBody(await ctx.scaling.getGroup(tenantId, groupNameOf(event))));
}

export async function deleteScalingGroup(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  const tenantId = tenantOf(event);
  const name = groupNameOf(event);
  const released = await ctx.scaling.deleteGroup(tenantId, name);
  return json(202, { name, status: 'DELETED', released });
}
