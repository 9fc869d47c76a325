import { describe, expect, it } from 'vitest';
import { admitQueued } from '../../../shared/usecases/admission/queue';
import { setTenantQuota } from '../../../shared/usecases/admission/quotas';
import { endWait, sendWaitEnds } from '../../../shared/usecases/admission/wait-ends';
import { runLeaseCommand } from '../../../shared/usecases/lease-commands';
import { provisionLease } from '../../../shared/usecases/provision-lease';
import { completeRelease, requestRelease } from '../../../shared/usecases/release-lease';
import { type FakeControlPlane, fakeControlPlane } from '../../support/fakes/control-plane';
import { requestLease, runningLease, TENANT } from '../../support/fakes/leases';

const ONE_GPU = { maxGpus: 1, maxHourlyMicroUsd: 100_000_000, maxGpusByMode: {}, weight: 1 };
const MINUTE = 60_000;

/** A tenant at its one-GPU quota, and a lease of its that waits with `maxWaitMinutes`. */
async function waitingLease(plane: FakeControlPlane, maxWaitMinutes: number) {
  await setTenantQuota(plane, TENANT, ONE_GPU);
  const running = await runningLease(plane);
  const lease = await requestLease(plane, { maxWaitMinutes });
  expect(await provisionLease(plane, TENANT, lease.leaseId)).toBe('queued');
  return { running, leaseId: lease.leaseId, endsAtMs: plane.clock.now() + maxWaitMinutes * MINUTE };
}

/** The scheduled pass at the clock's instant (its commands sent `sendingMs` later), and the time-outs it held back. */
async function scheduledPass(plane: FakeControlPlane, sendingMs = 0) {
  const before = plane.commands.sent.length;
  const passAtMs = plane.clock.now();
  const { run } = await admitQueued(plane);
  plane.clock.advance(sendingMs);
  await sendWaitEnds(plane, run.queued, passAtMs);
  return plane.commands.sent.slice(before).filter((sent) => sent.command.type === 'time-out');
}

describe('a wait that ends between two scheduled passes', () => {
  it('fails the lease when its wait ends, not at the next pass', async () => {
    const plane = fakeControlPlane();
    const { leaseId, endsAtMs } = await waitingLease(plane, 3);

    // The passes before the last minute of the wait send nothing.
    plane.clock.advance(MINUTE + 20_000);
    expect(await scheduledPass(plane)).toEqual([]);
    // The pass 40 s before the end holds a time-out back until it.
    plane.clock.advance(MINUTE);
    const [timeOut, ...more] = await scheduledPass(plane);
    expect(more).toEqual([]);
    expect(timeOut).toEqual({
      command: { type: 'time-out', tenantId: TENANT, leaseId },
      visibleAtMs: endsAtMs,
    });
    expect(plane.leases.peek(TENANT, leaseId)?.status).toBe('QUEUED');

    plane.clock.set(endsAtMs);
    const outcome = await runLeaseCommand(
      plane,
      timeOut?.command ?? { type: 'time-out', tenantId: '', leaseId },
    );
    expect(outcome).toEqual({ outcome: 'timed-out', metric: 'time-out-timed-out' });
    const failed = plane.leases.peek(TENANT, leaseId);
    expect(failed?.status).toBe('FAILED');
    expect(failed?.failureReason).toMatch(/^QUEUE_TIMEOUT/);
    expect(failed?.updatedAtMs).toBe(endsAtMs);
    expect(plane.events.ofType('LeaseQueueTimedOut').map((e) => e.detail)).toEqual([
      { leaseId, maxWaitMinutes: 3 },
    ]);
    expect(plane.compute.live()).toHaveLength(1);
  });

  it('holds each command back from when it is sent, never early: a slow pass still fails the lease on time', async () => {
    const plane = fakeControlPlane();
    const { leaseId, endsAtMs } = await waitingLease(plane, 1);
    // The pass 30.5 s before the end sends its commands 10 s after its instant: held back 21 s, to the whole second.
    plane.clock.set(endsAtMs - 30_500);
    const [timeOut] = await scheduledPass(plane, 10_000);
    expect(timeOut).toEqual({
      command: { type: 'time-out', tenantId: TENANT, leaseId },
      visibleAtMs: endsAtMs + 500,
    });

    // A pass a second before the end that sends only 5 s later, after the wait ended: at once.
    const slow = fakeControlPlane();
    const late = await waitingLease(slow, 1);
    slow.clock.set(late.endsAtMs - 1_000);
    const [atOnce] = await scheduledPass(slow, 5_000);
    expect(atOnce?.visibleAtMs).toBe(late.endsAtMs + 4_000);
  });

  it('acts once on a redelivered command and on a pass at the same moment', async () => {
    const plane = fakeControlPlane();
    const { leaseId, endsAtMs } = await waitingLease(plane, 1);
    plane.clock.set(endsAtMs);
    expect(await endWait(plane, TENANT, leaseId)).toBe('timed-out');
    expect(await endWait(plane, TENANT, leaseId)).toBe('not-waiting');
    await admitQueued(plane);
    expect(plane.events.ofType('LeaseQueueTimedOut')).toHaveLength(1);
    expect(plane.events.ofType('LeaseFailed')).toHaveLength(1);
  });

  it('completes a time-out whose first delivery stopped after the lease left the queue', async () => {
    const plane = fakeControlPlane();
    const { leaseId, endsAtMs } = await waitingLease(plane, 1);
    plane.clock.set(endsAtMs);
    // The first delivery took the lease out of the queue, then its function stopped.
    expect(await plane.admission.timeOut(leaseId)).toBe(true);
    expect(plane.leases.peek(TENANT, leaseId)?.status).toBe('QUEUED');

    expect(await endWait(plane, TENANT, leaseId)).toBe('timed-out');
    expect(plane.leases.peek(TENANT, leaseId)?.failureReason).toMatch(/^QUEUE_TIMEOUT/);
  });

  it('leaves alone a lease whose wait has not ended, one admitted meanwhile, and another tenant’s', async () => {
    const plane = fakeControlPlane();
    const { running, leaseId, endsAtMs } = await waitingLease(plane, 2);
    plane.clock.set(endsAtMs - 1);
    expect(await endWait(plane, TENANT, leaseId)).toBe('waiting');
    expect(await endWait(plane, 'tenant-b', leaseId)).toBe('not-waiting');
    expect(plane.leases.peek(TENANT, leaseId)?.status).toBe('QUEUED');

    // A release admits it a millisecond before its wait ends; the time-out then finds it admitted.
    await requestRelease(plane, TENANT, running.leaseId);
    await completeRelease(plane, TENANT, running.leaseId);
    expect(plane.leases.peek(TENANT, leaseId)?.status).toBe('PENDING');
    plane.clock.set(endsAtMs);
    expect(await endWait(plane, TENANT, leaseId)).toBe('not-waiting');
    expect(plane.leases.peek(TENANT, leaseId)?.status).toBe('PENDING');
    expect(plane.events.ofType('LeaseQueueTimedOut')).toEqual([]);
  });
});
