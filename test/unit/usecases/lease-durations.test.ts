import { describe, expect, it } from 'vitest';
import { setTenantQuota } from '../../../shared/usecases/admission/quotas';
import { provisionLease } from '../../../shared/usecases/provision-lease';
import { completeRelease, requestRelease } from '../../../shared/usecases/release-lease';
import { type FakeControlPlane, fakeControlPlane } from '../../support/fakes/control-plane';
import { requestLease, runningLease, TENANT } from '../../support/fakes/leases';

const MINUTE = 60_000;
const ONE_GPU = { maxGpus: 1, maxHourlyMicroUsd: 100_000_000, maxGpusByMode: {}, weight: 1 };

async function release(plane: FakeControlPlane, leaseId: string) {
  await requestRelease(plane, TENANT, leaseId);
  return completeRelease(plane, TENANT, leaseId);
}

/** A training lease that runs `minutes` and is released. */
async function ranFor(plane: FakeControlPlane, minutes: number) {
  const lease = await runningLease(plane);
  plane.clock.advance(minutes * MINUTE);
  await release(plane, lease.leaseId);
  return lease;
}

describe('the history of lease durations (fakes, injected clock)', () => {
  it('records how long each released lease held its admission under its tenant and workload, once', async () => {
    const plane = fakeControlPlane();
    const lease = await ranFor(plane, 30);

    const history = await plane.admission.durations();
    expect(history.byTenantWorkload).toEqual({ [`${TENANT}#training`]: [30 * MINUTE] });
    expect(history.byWorkload).toEqual({ training: [30 * MINUTE] });

    // A duplicate release, and a duplicate record, add nothing.
    expect(await completeRelease(plane, TENANT, lease.leaseId)).toBe('not-releasing');
    expect(
      await plane.admission.recordDuration({
        leaseId: lease.leaseId,
        tenantId: TENANT,
        workload: 'training',
        durationMs: 30 * MINUTE,
      }),
    ).toBe(false);
    expect((await plane.admission.durations()).byTenantWorkload[`${TENANT}#training`]).toEqual([30 * MINUTE]);
  });

  it('records nothing for a lease released while it still waited (it never held anything)', async () => {
    const plane = fakeControlPlane();
    await setTenantQuota(plane, TENANT, ONE_GPU);
    await runningLease(plane);
    const waiting = await requestLease(plane);
    expect(await provisionLease(plane, TENANT, waiting.leaseId)).toBe('queued');
    plane.clock.advance(10 * MINUTE);

    await release(plane, waiting.leaseId);

    expect((await plane.admission.durations()).byTenantWorkload).toEqual({});
  });

  it("estimates a wait from the tenant's history of that workload once it has enough leases", async () => {
    const plane = fakeControlPlane();
    await setTenantQuota(plane, TENANT, ONE_GPU);
    for (const minutes of [10, 20, 20, 40, 90]) await ranFor(plane, minutes);

    const running = await runningLease(plane);
    const waiting = await requestLease(plane, { maxWaitMinutes: 120 });
    const joinedAtMs = plane.clock.now();
    expect(await provisionLease(plane, TENANT, waiting.leaseId)).toBe('queued');

    // The median of the five: the running lease is expected to end 20 minutes after it was admitted.
    expect(plane.leases.peek(TENANT, waiting.leaseId)?.queue).toEqual({
      reason: 'quota',
      position: 1,
      estimatedStartAtMs: running.createdAtMs + 20 * MINUTE,
      estimateBasis: 'history:tenant-workload',
      waitEndsAtMs: joinedAtMs + 120 * MINUTE,
    });
  });
});
