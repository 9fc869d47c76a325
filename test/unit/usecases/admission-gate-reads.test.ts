import { describe, expect, it, vi } from 'vitest';
import { GATE_READ_MAX_AGE_MS } from '../../../shared/usecases/admission/gate-reads';
import { setTenantQuota } from '../../../shared/usecases/admission/quotas';
import { provisionLease } from '../../../shared/usecases/provision-lease';
import { completeRelease, requestRelease } from '../../../shared/usecases/release-lease';
import { fakeControlPlane } from '../../support/fakes/control-plane';
import { requestLease, runningLease, TENANT } from '../../support/fakes/leases';

const ONE_GPU = { maxGpus: 1, maxHourlyMicroUsd: 100_000_000, maxGpusByMode: {}, weight: 1 };

/** A plane whose quota is taken by one running lease, so every new lease queues. */
async function fullPlane() {
  const plane = fakeControlPlane();
  await setTenantQuota(plane, TENANT, ONE_GPU);
  const running = await runningLease(plane);
  return { plane, running };
}

describe('the provisioner gate under a backlog (issue #48)', () => {
  it('writes only its own lease: the places of the leases already waiting are the wide passes’ to write', async () => {
    const { plane } = await fullPlane();
    const waiting = [];
    for (let i = 0; i < 5; i++) {
      // Apart in time: leases that joined in the same millisecond have no order between them.
      plane.clock.advance(10);
      const lease = await requestLease(plane, { maxWaitMinutes: 600 });
      expect(await provisionLease(plane, TENANT, lease.leaseId)).toBe('queued');
      waiting.push(lease);
    }
    const transition = vi.spyOn(plane.leases, 'transition');
    plane.clock.advance(10);
    const next = await requestLease(plane, { maxWaitMinutes: 600 });

    expect(await provisionLease(plane, TENANT, next.leaseId)).toBe('queued');

    const written = new Set(transition.mock.calls.map((call) => call[1]));
    expect([...written]).toEqual([next.leaseId]);
    expect(plane.leases.peek(TENANT, next.leaseId)?.queue?.position).toBe(6);
  });

  it('reads the queue once for the gates of one container within the read age, and afresh after it', async () => {
    const { plane } = await fullPlane();
    const snapshot = vi.spyOn(plane.admission, 'snapshot');
    const running = vi.spyOn(plane.admission, 'running');

    const queued = [];
    for (let i = 0; i < 4; i++) {
      plane.clock.advance(10);
      const lease = await requestLease(plane, { maxWaitMinutes: 600 });
      expect(await provisionLease(plane, TENANT, lease.leaseId)).toBe('queued');
      queued.push(lease.leaseId);
    }
    expect(snapshot).toHaveBeenCalledTimes(1);
    expect(running).toHaveBeenCalledTimes(1);
    // Each gate still weighs its own lease, just enqueued, behind the ones before it (this container's).
    expect(queued.map((id) => plane.leases.peek(TENANT, id)?.queue?.position)).toEqual([1, 2, 3, 4]);

    plane.clock.advance(GATE_READ_MAX_AGE_MS);
    const later = await requestLease(plane, { maxWaitMinutes: 600 });
    expect(await provisionLease(plane, TENANT, later.leaseId)).toBe('queued');
    expect(snapshot).toHaveBeenCalledTimes(2);
  });

  it('forgets the shared read once a release frees room: the next gate admits on what is true now', async () => {
    const { plane, running } = await fullPlane();
    const first = await requestLease(plane, { maxWaitMinutes: 600 });
    expect(await provisionLease(plane, TENANT, first.leaseId)).toBe('queued');

    await requestRelease(plane, TENANT, running.leaseId);
    await completeRelease(plane, TENANT, running.leaseId);
    // The release's wide pass admitted the waiting lease; the quota is full again.
    expect(plane.leases.peek(TENANT, first.leaseId)?.status).toBe('PENDING');
    const snapshot = vi.spyOn(plane.admission, 'snapshot');

    const next = await requestLease(plane, { maxWaitMinutes: 600 });
    expect(await provisionLease(plane, TENANT, next.leaseId)).toBe('queued');
    // Read afresh within the read age: a shared read from before the release would not show the hand-over.
    expect(snapshot).toHaveBeenCalledTimes(1);
    expect(plane.leases.peek(TENANT, next.leaseId)?.queue?.position).toBe(1);
  });

  it('admits a lease that fits at once, and never past the quota on a shared read', async () => {
    const plane = fakeControlPlane();
    await setTenantQuota(plane, TENANT, { ...ONE_GPU, maxGpus: 2 });
    const outcomes = [];
    for (let i = 0; i < 4; i++) {
      const lease = await requestLease(plane, { maxWaitMinutes: 600 });
      outcomes.push(await provisionLease(plane, TENANT, lease.leaseId));
    }
    expect(outcomes).toEqual(['running', 'running', 'queued', 'queued']);
    expect((await plane.admission.tenant(TENANT))?.usage.gpus).toBe(2);
  });
});
