import { describe, expect, it } from 'vitest';
import { poolKey } from '../../../shared/domain/admission/claims';
import type { AccountVcpuQuota } from '../../../shared/domain/admission/fleet-capacity';
import { refreshFleetCapacity } from '../../../shared/usecases/admission/fleet-capacity';
import { provisionLease } from '../../../shared/usecases/provision-lease';
import { completeRelease, requestRelease } from '../../../shared/usecases/release-lease';
import { FakeAccountQuotas } from '../../support/fakes/account-quotas';
import { type FakeControlPlane, fakeControlPlane } from '../../support/fakes/control-plane';
import { requestLease, runningLease, TENANT } from '../../support/fakes/leases';

/** g5.xlarge, the fakes' default type, has 4 vCPUs: a G on-demand quota of 4 holds one such lease. */
const G_ON_DEMAND = { region: 'us-east-1', family: 'G', market: 'on-demand' } as const;
const G_POOL = poolKey({ kind: 'vcpu', ...G_ON_DEMAND });

function refresher(
  plane: FakeControlPlane,
  quotas: FakeAccountQuotas,
  overrides: readonly AccountVcpuQuota[] = [],
) {
  return () =>
    refreshFleetCapacity({
      admission: plane.admission,
      accountQuotas: quotas,
      quotaOverrides: overrides,
      commitments: plane.commitments,
      compute: plane.compute,
      catalog: plane.catalog,
      regions: plane.placement.regions,
      now: plane.clock.now,
    });
}

const limitOf = async (plane: FakeControlPlane, key: string) =>
  (await plane.admission.pools()).find((pool) => poolKey(pool) === key)?.limit;

describe('refreshing fleet capacity on the fakes', () => {
  it('queues the lease that would exceed the account quota (account-quota) and admits it at a release', async () => {
    const plane = fakeControlPlane();
    const quotas = new FakeAccountQuotas().set(G_ON_DEMAND, 4);
    const refresh = await refresher(plane, quotas)();
    expect(refresh.written).toEqual([{ kind: 'vcpu', ...G_ON_DEMAND, limit: 4 }]);
    // Every other quota of both GPU regions was asked for and is not known: no pool, no limit.
    expect(quotas.asked).toHaveLength(8);
    expect(refresh.unavailable.map((e) => e.reason)).toEqual(Array(7).fill('not-found'));

    const first = await runningLease(plane);
    const second = await requestLease(plane, { maxWaitMinutes: 120 });
    expect(await provisionLease(plane, TENANT, second.leaseId)).toBe('queued');
    expect(plane.leases.peek(TENANT, second.leaseId)?.queue).toMatchObject({
      reason: 'account-quota',
      position: 1,
    });
    // Queued before EC2 was asked: only the first lease's instance runs.
    expect(plane.compute.live().map((i) => i.leaseId)).toEqual([first.leaseId]);

    await requestRelease(plane, TENANT, first.leaseId);
    await completeRelease(plane, TENANT, first.leaseId);
    expect(plane.leases.peek(TENANT, second.leaseId)?.status).toBe('PENDING');
    expect(await provisionLease(plane, TENANT, second.leaseId)).toBe('running');
    expect((await plane.admission.pools()).find((pool) => poolKey(pool) === G_POOL)?.used).toBe(4);
  });

  it('keeps the stored limit while Service Quotas is unreachable, and an override wins over it', async () => {
    const plane = fakeControlPlane();
    const quotas = new FakeAccountQuotas().set(G_ON_DEMAND, 8);
    await refresher(plane, quotas)();
    expect(await limitOf(plane, G_POOL)).toBe(8);

    quotas.set(G_ON_DEMAND, 16).down = 'unreachable';
    const refresh = await refresher(plane, quotas)();
    expect(refresh.written).toEqual([]);
    expect(refresh.unavailable).toHaveLength(8);
    expect(await limitOf(plane, G_POOL)).toBe(8);

    quotas.asked.length = 0;
    await refresher(plane, quotas, [{ ...G_ON_DEMAND, vcpus: 12 }])();
    expect(await limitOf(plane, G_POOL)).toBe(12);
    expect(quotas.asked).toHaveLength(7);
  });

  it('leaves out of the quota what the fleet runs outside admission', async () => {
    const plane = fakeControlPlane();
    const quotas = new FakeAccountQuotas().set(G_ON_DEMAND, 8);
    // Admitted before the pool existed: its claim holds no pool, so its instance is subtracted.
    await runningLease(plane);
    await refresher(plane, quotas)();
    expect(await limitOf(plane, G_POOL)).toBe(4);
  });
});
