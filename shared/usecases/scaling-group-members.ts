import { mapWithConcurrency } from '../concurrency';
import type { LeaseView } from '../domain/lease';
import type { GroupMember } from '../domain/scaling';
import type { ScalingGroup } from '../ports/scaling-groups';
import type { ControlPlane } from './dependencies';

/** Lease reads in flight at once per evaluation; DynamoDB takes more, Lambda's sockets fewer. */
const CONCURRENT_READS = 16;

function toMember(record: ScalingGroup['members'][number], lease: LeaseView | undefined): GroupMember {
  const open = (lease?.instances ?? []).filter((i) => i.meteringOpen);
  return {
    leaseId: record.leaseId,
    // A lease that is gone counts as failed: the group replaces it.
    status: lease?.status ?? 'FAILED',
    mode: open[0]?.mode ?? record.mode,
    createdAtMs: record.createdAtMs,
    launchedAtMs: open.length === 0 ? undefined : Math.min(...open.map((i) => i.launchedAtMs)),
    instanceIds: open.map((i) => i.instanceId),
    queue: lease?.status === 'QUEUED' ? lease.queue : undefined,
  };
}

/** Each member of the group with the status and instances of its lease. */
export function membersOf(deps: Pick<ControlPlane, 'leases'>, group: ScalingGroup): Promise<GroupMember[]> {
  return mapWithConcurrency(group.members, CONCURRENT_READS, async (record) =>
    toMember(record, await deps.leases.get(group.tenantId, record.leaseId)),
  );
}
