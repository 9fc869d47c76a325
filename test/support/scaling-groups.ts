import type { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { mapWithConcurrency } from '../../shared/concurrency';
import { type ScalingGroupSpecInput, scalingGroupSpecSchema } from '../../shared/domain/scaling';
import type { LeaseRepository } from '../../shared/ports/lease-repository';
import type { ScalingGroupRepository } from '../../shared/ports/scaling-groups';
import { launchedInstance, storedLease } from './leases';

/** Counts the GetMetricData calls a CloudWatch client sends (each page of a paginated read counts). */
export function countMetricDataCalls(client: CloudWatchClient): { readonly calls: () => number } {
  let calls = 0;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'GetMetricDataCommand') calls += 1;
      return next(args);
    },
    { step: 'initialize', name: 'countGetMetricData' },
  );
  return { calls: () => calls };
}

/**
 * `count` groups of one tenant, each with one RUNNING member past its warm-up
 * (lease and instance rows as the lease worker writes them; no EC2 instance).
 */
export async function seedGroupsWithOneMember(
  stores: { leases: LeaseRepository; groups: ScalingGroupRepository },
  count: number,
  nowMs: number,
  specOf: (index: number) => Partial<ScalingGroupSpecInput> = () => ({}),
): Promise<void> {
  const launchedAtMs = nowMs - 3_600_000;
  await mapWithConcurrency(
    Array.from({ length: count }, (_, i) => i),
    16,
    async (i) => {
      const tenantId = 'tenant-fleet';
      const instanceId = `i-${(i + 1).toString(16).padStart(17, '0')}`;
      const lease = await storedLease(stores.leases, {
        tenantId,
        workload: 'inference',
        status: 'RUNNING',
        createdAtMs: launchedAtMs,
        updatedAtMs: launchedAtMs,
      });
      await stores.leases.recordInstances([launchedInstance(lease, instanceId, launchedAtMs)]);
      const name = `group-${i}`;
      const spec = scalingGroupSpecSchema.parse({ instanceType: 'g5.xlarge', min: 1, max: 4, ...specOf(i) });
      await stores.groups.put(tenantId, name, spec, launchedAtMs);
      await stores.groups.addMember(tenantId, name, {
        leaseId: lease.leaseId,
        mode: 'on-demand',
        createdAtMs: launchedAtMs,
      });
    },
  );
}
