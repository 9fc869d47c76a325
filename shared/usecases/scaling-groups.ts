import {
  foreignNamespaces,
  type GroupMember,
  isBooting,
  isLive,
  type ScalingGroupSpec,
  tenantMetricNamespacePrefix,
} from '../domain/scaling';
import { DEFAULT_TENANT_LIMITS, type TenantLimits } from '../domain/tenant-limits';
import { UnsupportedInstanceTypeError } from '../errors';
import type { ScalingGroup, StoredDecision } from '../ports/scaling-groups';
import {
  ForeignMetricNamespaceError,
  ScalingGroupCapError,
  ScalingGroupNotFoundError,
} from '../scaling-errors';
import type { ScalingDeps } from './evaluate-scaling-groups';
import { requestRelease } from './release-lease';
import { membersOf } from './scaling-group-members';

type Deps = Pick<ScalingDeps, 'groups' | 'leases' | 'commands' | 'catalog' | 'region' | 'now'>;

/** Decisions GET shows, newest first. */
const SHOWN_DECISIONS = 10;

export interface ScalingGroupView {
  readonly group: ScalingGroup;
  readonly members: readonly (GroupMember & { readonly booting: boolean })[];
  readonly decisions: readonly StoredDecision[];
}

/**
 * Creates a group or replaces its spec. Members change only at the next
 * evaluation, which converges the group to its (new) desired size. A custom
 * condition must read the tenant's own namespace, and a new group must fit
 * the tenant's cap on groups (`limits`); replacing a group's spec never counts.
 */
export async function putScalingGroup(
  deps: Deps,
  tenantId: string,
  name: string,
  spec: ScalingGroupSpec,
  limits: Pick<TenantLimits, 'maxScalingGroups'> = DEFAULT_TENANT_LIMITS,
): Promise<{ created: boolean; view: ScalingGroupView }> {
  const supported = deps.catalog.singleGpuTypes(deps.region);
  if (!supported.includes(spec.instanceType))
    throw new UnsupportedInstanceTypeError(spec.instanceType, supported);
  const foreign = foreignNamespaces(spec, tenantId);
  if (foreign.length > 0)
    throw new ForeignMetricNamespaceError(tenantMetricNamespacePrefix(tenantId), foreign);
  const existed = (await deps.groups.get(tenantId, name)) !== undefined;
  // One query of the tenant's groups, bounded by the cap itself; two creates at
  // the same instant may both pass it (the cap bounds cost, it is not a lock).
  if (!existed && (await deps.groups.list(tenantId)).length >= limits.maxScalingGroups) {
    throw new ScalingGroupCapError(limits.maxScalingGroups);
  }
  const group = await deps.groups.put(tenantId, name, spec, deps.now());
  return { created: !existed, view: await viewOf(deps, group) };
}

export async function getScalingGroup(deps: Deps, tenantId: string, name: string): Promise<ScalingGroupView> {
  const group = await deps.groups.get(tenantId, name);
  if (!group) throw new ScalingGroupNotFoundError(name);
  return viewOf(deps, group);
}

async function viewOf(deps: Deps, group: ScalingGroup): Promise<ScalingGroupView> {
  const nowMs = deps.now();
  const [members, decisions] = await Promise.all([
    membersOf(deps, group),
    deps.groups.decisions(group.tenantId, group.name, SHOWN_DECISIONS),
  ]);
  return {
    group,
    members: members.map((m) => ({ ...m, booting: isBooting(m, group.spec.instanceWarmupSeconds, nowMs) })),
    decisions,
  };
}

/**
 * Drains the group: evaluations stop acting on it, every live member is
 * released (billing closes as for any lease), then the group is removed.
 * Repeating it finishes an interrupted delete.
 */
export async function deleteScalingGroup(deps: Deps, tenantId: string, name: string): Promise<string[]> {
  const group = await deps.groups.markDeleting(tenantId, name, deps.now());
  if (!group) throw new ScalingGroupNotFoundError(name);
  const live = (await membersOf(deps, group)).filter(isLive).map((m) => m.leaseId);
  for (const leaseId of live) await requestRelease(deps, tenantId, leaseId);
  await deps.groups.delete(tenantId, name);
  return live;
}
