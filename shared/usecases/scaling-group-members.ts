import type { LeaseView } from '../domain/lease';
import type { GroupMember } from '../domain/scaling';
import type { ScalingGroup } from '../ports/scaling-groups';
import type { ControlPlane } from './dependencies';

/** Lease reads in flight at once per evaluation; DynamoDB takes more, Lambda's sockets fewer. */
const CONCURRENT_READS = 16;

/** Runs `fn` over `items` with at most `limit` calls in flight, keeping the order. */
export async function mapConcurrently<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

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
  };
}

/** Each member of the group with the status and instances of its lease. */
export function membersOf(deps: Pick<ControlPlane, 'leases'>, group: ScalingGroup): Promise<GroupMember[]> {
  return mapConcurrently(group.members, CONCURRENT_READS, async (record) =>
    toMember(record, await deps.leases.get(group.tenantId, record.leaseId)),
  );
}
