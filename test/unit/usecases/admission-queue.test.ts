import { describe, expect, it, vi } from 'vitest';
import type { AdmissionClaim } from '../../../shared/domain/admission/claims';
import { queueFigures, waitsOf } from '../../../shared/domain/admission/queue-figures';
import { AccountQuotaExceededError } from '../../../shared/ports/compute';
import { RESERVATION_RECOVERY_AFTER_MS } from '../../../shared/usecases/admission/admission-pass';
import { admitQueued, waitingLeaseOf } from '../../../shared/usecases/admission/queue';
import { setTenantQuota } from '../../../shared/usecases/admission/quotas';
import { provisionLease } from '../../../shared/usecases/provision-lease';
import { completeRelease, requestRelease } from '../../../shared/usecases/release-lease';
import { fakeControlPlane } from '../../support/fakes/control-plane';
import { requestLease, runningLease, TENANT } from '../../support/fakes/leases';

const ONE_GPU = { maxGpus: 1, maxHourlyMicroUsd: 100_000_000, maxGpusByMode: {}, weight: 1 };

describe('the admission queue on the fakes (injected clock)', () => {
  it('queues a lease over its tenant quota and admits it, once, when the running one is released', async () => {
    const plane = fakeControlPlane();
    await setTenantQuota(plane, TENANT, ONE_GPU);
    const first = await runningLease(plane);
    // Long enough to outwait the running lease's estimated hour (with 60 it would be told `times-out`).
    const second = await requestLease(plane, { maxWaitMinutes: 120 });

    expect(await provisionLease(plane, TENANT, second.leaseId)).toBe('queued');
    const queued = plane.leases.peek(TENANT, second.leaseId);
    expect(queued?.status).toBe('QUEUED');
    // The running lease has no expiry and no declared runtime: the default hour per lease.
    expect(queued?.queue).toEqual({
      reason: 'quota',
      position: 1,
      estimatedStartAtMs: first.createdAtMs + 60 * 60_000,
      estimateBasis: 'default',
      // Its maxWaitMinutes after it joined the queue, with the running lease.
      waitEndsAtMs: first.createdAtMs + 120 * 60_000,
    });
    expect(plane.events.ofType('LeaseQueued').map((e) => e.detail)).toEqual([
      { leaseId: second.leaseId, ...queued?.queue },
    ]);
    expect(plane.compute.live()).toHaveLength(1);

    plane.clock.advance(10 * 60_000);
    await requestRelease(plane, TENANT, first.leaseId);
    await completeRelease(plane, TENANT, first.leaseId);

    expect(plane.leases.peek(TENANT, second.leaseId)?.status).toBe('PENDING');
    expect(plane.events.ofType('LeaseAdmitted').map((e) => e.detail)).toEqual([
      { leaseId: second.leaseId, waitedMs: 10 * 60_000 },
    ]);
    // The lease keeps its wait: one reason mark (the release's pass saw the same reason), then the admission.
    const admitted = plane.leases.peek(TENANT, second.leaseId);
    expect(admitted?.queueHistory).toEqual([
      { state: 'quota', atMs: first.createdAtMs },
      { state: 'admitted', atMs: first.createdAtMs + 10 * 60_000 },
    ]);
    expect(admitted?.queuedAtMs).toBe(first.createdAtMs);
    const starts = plane.commands.commands().filter((c) => c.type === 'start');
    expect(starts).toEqual([{ type: 'start', tenantId: TENANT, leaseId: second.leaseId }]);

    expect(await provisionLease(plane, TENANT, second.leaseId)).toBe('running');
    expect((await plane.admission.tenant(TENANT))?.usage.gpus).toBe(1);
  });

  it('fails a lease that waited past maxWaitMinutes with QUEUE_TIMEOUT, never launched or billed', async () => {
    const plane = fakeControlPlane();
    await setTenantQuota(plane, TENANT, ONE_GPU);
    const first = await runningLease(plane);
    const waiting = await requestLease(plane, { maxWaitMinutes: 5 });
    expect(await provisionLease(plane, TENANT, waiting.leaseId)).toBe('queued');

    plane.clock.advance(5 * 60_000);
    // Any pass after the deadline times it out; here the quota change's.
    await setTenantQuota(plane, TENANT, ONE_GPU);

    const failed = plane.leases.peek(TENANT, waiting.leaseId);
    expect(failed?.status).toBe('FAILED');
    expect(failed?.failureReason).toMatch(/^QUEUE_TIMEOUT/);
    expect(failed?.instances).toEqual([]);
    expect(plane.events.ofType('LeaseQueueTimedOut').map((e) => e.detail)).toEqual([
      { leaseId: waiting.leaseId, maxWaitMinutes: 5 },
    ]);
    expect(plane.compute.live().map((i) => i.leaseId)).toEqual([first.leaseId]);
    // It is never admitted afterwards.
    await requestRelease(plane, TENANT, first.leaseId);
    await completeRelease(plane, TENANT, first.leaseId);
    expect(plane.leases.peek(TENANT, waiting.leaseId)?.status).toBe('FAILED');
  });

  it('counts maxWaitMinutes, and the wait LeaseAdmitted reports, from when the lease joined the queue', async () => {
    const plane = fakeControlPlane();
    await setTenantQuota(plane, TENANT, ONE_GPU);
    const first = await runningLease(plane);
    const waiting = await requestLease(plane, { maxWaitMinutes: 5 });
    // Its provision command is delivered late: the wait starts with provisioning, not at creation.
    plane.clock.advance(4 * 60_000);
    expect(await provisionLease(plane, TENANT, waiting.leaseId)).toBe('queued');

    plane.clock.advance(4 * 60_000);
    await admitQueued(plane);
    expect(plane.leases.peek(TENANT, waiting.leaseId)?.status).toBe('QUEUED');

    await requestRelease(plane, TENANT, first.leaseId);
    await completeRelease(plane, TENANT, first.leaseId);
    expect(plane.leases.peek(TENANT, waiting.leaseId)?.status).toBe('PENDING');
    expect(plane.events.ofType('LeaseAdmitted').map((e) => e.detail)).toEqual([
      { leaseId: waiting.leaseId, waitedMs: 4 * 60_000 },
    ]);
  });

  it('times a lease out maxWaitMinutes after it joined the queue', async () => {
    const plane = fakeControlPlane();
    await setTenantQuota(plane, TENANT, ONE_GPU);
    await runningLease(plane);
    const waiting = await requestLease(plane, { maxWaitMinutes: 5 });
    plane.clock.advance(4 * 60_000);
    expect(await provisionLease(plane, TENANT, waiting.leaseId)).toBe('queued');
    plane.clock.advance(5 * 60_000 - 1);
    await admitQueued(plane);
    expect(plane.leases.peek(TENANT, waiting.leaseId)?.status).toBe('QUEUED');
    plane.clock.advance(1);
    await admitQueued(plane);
    expect(plane.leases.peek(TENANT, waiting.leaseId)?.failureReason).toMatch(/^QUEUE_TIMEOUT/);
  });

  it('a released QUEUED lease leaves the queue without launching', async () => {
    const plane = fakeControlPlane();
    await setTenantQuota(plane, TENANT, ONE_GPU);
    await runningLease(plane);
    const waiting = await requestLease(plane);
    await provisionLease(plane, TENANT, waiting.leaseId);

    await requestRelease(plane, TENANT, waiting.leaseId);
    expect(await completeRelease(plane, TENANT, waiting.leaseId)).toBe('released');
    expect(await plane.admission.status(waiting.leaseId)).toBe('RELEASED');
    expect(plane.leases.peek(TENANT, waiting.leaseId)?.instances).toEqual([]);
  });

  it('queues, with reason account-quota, a lease every pool refused for the account vCPU quota', async () => {
    const plane = fakeControlPlane();
    // The fake's refusals are capacity errors; the account quota is EC2's VcpuLimitExceeded.
    const launch = plane.compute.launch.bind(plane.compute);
    plane.compute.launch = async (request) => {
      throw new AccountQuotaExceededError(
        request.mode,
        request.instanceType,
        'VcpuLimitExceeded',
        request.zone,
      );
    };
    const lease = await requestLease(plane);
    expect(await provisionLease(plane, TENANT, lease.leaseId)).toBe('queued');
    const stored = plane.leases.peek(TENANT, lease.leaseId);
    expect(stored?.status).toBe('QUEUED');
    expect(stored?.queue?.reason).toBe('account-quota');
    expect(plane.events.ofType('LeaseFailed')).toEqual([]);

    // It sits out passes during the back-off, then a pass lets it try again.
    plane.compute.launch = launch;
    plane.clock.advance(3 * 60_000);
    await setTenantQuota(plane, TENANT, ONE_GPU);
    expect(plane.leases.peek(TENANT, lease.leaseId)?.status).toBe('PENDING');
    expect(await provisionLease(plane, TENANT, lease.leaseId)).toBe('running');

    // Its 3 minutes on the account quota are what the figures count as refused: 1 GPU × 0.05 h.
    const ran = plane.leases.peek(TENANT, lease.leaseId);
    expect(ran?.queueHistory?.map((m) => m.state)).toEqual(['account-quota', 'admitted']);
    const { accountQuota } = queueFigures(waitsOf(ran ? [ran] : [], plane.now()), 0, plane.now() + 1);
    expect(accountQuota).toMatchObject({ gpuHours: 0.05, peakGpus: 1, timedOut: { leases: 0, gpuHours: 0 } });
  });
});

describe('the cost of a pass on the lease path', () => {
  it('reads the admission state once when the pass leaves nothing waiting, and once for a gate whose lease waits', async () => {
    const plane = fakeControlPlane();
    const snapshot = vi.spyOn(plane.admission, 'snapshot');
    const running = vi.spyOn(plane.admission, 'running');
    await runningLease(plane);
    expect(snapshot).toHaveBeenCalledTimes(1);
    expect(running).not.toHaveBeenCalled();

    await setTenantQuota(plane, TENANT, ONE_GPU);
    snapshot.mockClear();
    const waiting = await requestLease(plane);
    expect(await provisionLease(plane, TENANT, waiting.leaseId)).toBe('queued');
    // The gate's round admitted nothing: its positions and estimates come from the state that round read.
    expect(snapshot).toHaveBeenCalledTimes(1);
    expect(running).toHaveBeenCalledTimes(1);
  });

  it('reads the state again for the positions when the pass admitted some leases and left others waiting', async () => {
    const plane = fakeControlPlane();
    await setTenantQuota(plane, TENANT, ONE_GPU);
    const first = await runningLease(plane);
    const waiting = [await requestLease(plane), await requestLease(plane)];
    for (const lease of waiting) expect(await provisionLease(plane, TENANT, lease.leaseId)).toBe('queued');
    const snapshot = vi.spyOn(plane.admission, 'snapshot');

    await requestRelease(plane, TENANT, first.leaseId);
    await completeRelease(plane, TENANT, first.leaseId);
    // The release's pass admitted one and left one waiting: that one's place is after the admission.
    expect(snapshot).toHaveBeenCalledTimes(2);
    const left = waiting.map((lease) => plane.leases.peek(TENANT, lease.leaseId));
    expect(left.map((lease) => lease?.status).sort()).toEqual(['PENDING', 'QUEUED']);
    expect(left.find((lease) => lease?.status === 'QUEUED')?.queue).toMatchObject({
      reason: 'quota',
      position: 1,
    });
  });
});

describe('a pass after one that stopped between reserving and marking', () => {
  it('hands over the leases the stopped pass reserved for, when it is a wide pass; a gate leaves them', async () => {
    const plane = fakeControlPlane();
    await setTenantQuota(plane, TENANT, ONE_GPU);
    const first = await runningLease(plane);
    const waiting = await requestLease(plane);
    expect(await provisionLease(plane, TENANT, waiting.leaseId)).toBe('queued');
    // What settling the stopped pass's reservation admits (the DynamoDB store's; its integration test).
    const claim = {
      ...(await plane.admission.claim(first.leaseId)),
      leaseId: waiting.leaseId,
    } as AdmissionClaim;
    const recover = vi.spyOn(plane.admission, 'recover').mockResolvedValue([claim]);

    await admitQueued(plane, { only: 'another-lease' });
    expect(recover).not.toHaveBeenCalled();
    expect(plane.leases.peek(TENANT, waiting.leaseId)?.status).toBe('QUEUED');

    plane.clock.advance(60_000);
    await admitQueued(plane);
    expect(recover).toHaveBeenCalledWith(plane.now() - RESERVATION_RECOVERY_AFTER_MS);
    expect(plane.leases.peek(TENANT, waiting.leaseId)?.status).toBe('PENDING');
    expect(plane.events.ofType('LeaseAdmitted').map((e) => e.detail.leaseId)).toEqual([waiting.leaseId]);
  });
});

describe('a provisioner gate', () => {
  it('commits only its own lease: another admissible one is left to its own gate', async () => {
    const plane = fakeControlPlane();
    const other = await requestLease(plane);
    // The other lease joined the queue, but its gate has not run its pass yet.
    const otherLease = await plane.leases.get(TENANT, other.leaseId);
    if (!otherLease) throw new Error('no lease');
    await plane.admission.enqueue(waitingLeaseOf(plane, otherLease));
    const own = await requestLease(plane);

    expect(await provisionLease(plane, TENANT, own.leaseId)).toBe('running');
    expect(await plane.admission.status(own.leaseId)).toBe('ADMITTED');
    expect(await plane.admission.status(other.leaseId)).toBe('QUEUED');

    expect(await provisionLease(plane, TENANT, other.leaseId)).toBe('running');
    expect((await plane.admission.tenant(TENANT))?.usage.gpus).toBe(2);
  });
});
