import { describe, expect, it } from 'vitest';
import { LeaseNotFoundError } from '../../../shared/errors';
import { completeRelease, requestRelease } from '../../../shared/usecases/release-lease';
import { fakeControlPlane } from '../../support/fakes/control-plane';
import { CrashError } from '../../support/fakes/faults';
import { runningLease, TENANT } from '../../support/fakes/leases';

const HOUR = 3_600_000;
const G5_EAST = 1_006_000;
/** An hour of its 200 GiB root volume at $0.08/GB-month: 200 × 3600 × 80,000 ÷ 2,592,000 µ$. */
const EAST_VOLUME_HOUR = 22_222;

describe('releasing a lease', () => {
  it('terminates its instances, closes each bill at the termination and publishes the total', async () => {
    const plane = fakeControlPlane();
    const lease = await runningLease(plane);
    plane.clock.advance(HOUR);

    const requested = await requestRelease(plane, TENANT, lease.leaseId);
    expect(requested.status).toBe('RELEASING');
    expect(plane.commands.commands().at(-1)).toEqual({
      type: 'release',
      tenantId: TENANT,
      leaseId: lease.leaseId,
    });

    expect(await completeRelease(plane, TENANT, lease.leaseId)).toBe('released');

    const stored = plane.leases.peek(TENANT, lease.leaseId);
    expect(stored?.status).toBe('RELEASED');
    expect(stored?.instances.map((i) => [i.meteringOpen, i.billedSeconds, i.billedMicroUsd])).toEqual([
      [false, 3600, G5_EAST],
    ]);
    expect(plane.compute.live()).toEqual([]);
    expect(plane.events.ofType('LeaseReleased').map((e) => e.detail)).toEqual([
      { leaseId: lease.leaseId, totalMicroUsd: G5_EAST + EAST_VOLUME_HOUR, endedAtMs: plane.now() },
    ]);
    const [tenantSpend] = await plane.spend.spendOf([
      { tenantId: TENANT, month: '2026-11', scope: { kind: 'tenant' } },
    ]);
    expect(tenantSpend).toBe(G5_EAST + EAST_VOLUME_HOUR);
  });

  it('also ends and bills an instance EC2 runs for the lease that was never recorded', async () => {
    const plane = fakeControlPlane();
    const lease = await runningLease(plane);
    const stray = plane.compute.addInstance({
      region: 'us-east-1',
      zone: 'us-east-1b',
      instanceType: 'g5.xlarge',
      mode: 'on-demand',
      launchedAtMs: plane.now(),
      leaseId: lease.leaseId,
      tenantId: TENANT,
    });
    plane.clock.advance(HOUR);
    await requestRelease(plane, TENANT, lease.leaseId);

    await completeRelease(plane, TENANT, lease.leaseId);

    const stored = plane.leases.peek(TENANT, lease.leaseId);
    expect(stored?.instances.map((i) => i.instanceId)).toContain(stray.instanceId);
    expect(stored?.instances.every((i) => !i.meteringOpen && i.billedMicroUsd === G5_EAST)).toBe(true);
    expect(plane.events.ofType('LeaseReleased')[0]?.detail.totalMicroUsd).toBe(
      2 * (G5_EAST + EAST_VOLUME_HOUR),
    );
    expect(plane.compute.live()).toEqual([]);
  });

  it('a release retried after a crash bills up to the first termination, not the retry', async () => {
    const plane = fakeControlPlane();
    const lease = await runningLease(plane);
    plane.clock.advance(HOUR);
    await requestRelease(plane, TENANT, lease.leaseId);
    plane.ledger.faults.crashAfterNext('applyCharges');
    await expect(completeRelease(plane, TENANT, lease.leaseId)).rejects.toBeInstanceOf(CrashError);
    plane.clock.advance(5 * 60_000);

    expect(await completeRelease(plane, TENANT, lease.leaseId)).toBe('released');

    expect(plane.leases.peek(TENANT, lease.leaseId)?.instances[0]?.billedMicroUsd).toBe(G5_EAST);
    expect(plane.events.ofType('LeaseReleased')).toHaveLength(1);
    expect(await completeRelease(plane, TENANT, lease.leaseId)).toBe('not-releasing');
  });

  it('releasing twice queues the command again but changes nothing; an unknown lease is refused', async () => {
    const plane = fakeControlPlane();
    const lease = await runningLease(plane);
    await requestRelease(plane, TENANT, lease.leaseId);
    const again = await requestRelease(plane, TENANT, lease.leaseId);

    expect(again.status).toBe('RELEASING');
    await expect(requestRelease(plane, TENANT, 'lease_none')).rejects.toBeInstanceOf(LeaseNotFoundError);
  });

  it('a caller that completes the release itself: one held-back command, from the request that moved the lease', async () => {
    const plane = fakeControlPlane();
    const lease = await runningLease(plane);
    const releases = () => plane.commands.sent.filter((q) => q.command.type === 'release');
    // A concurrent request moves the lease between this one's read and its write.
    plane.leases.faults.interleave('transition', () =>
      plane.leases.transition(TENANT, lease.leaseId, ['RUNNING'], 'RELEASING', plane.now()),
    );
    await requestRelease(plane, TENANT, lease.leaseId, { commandDelaySeconds: 300 });
    expect(releases()).toEqual([]);

    const other = await runningLease(plane);
    const atMs = plane.now();
    await requestRelease(plane, TENANT, other.leaseId, { commandDelaySeconds: 300 });
    expect(releases()).toEqual([
      { command: { type: 'release', tenantId: TENANT, leaseId: other.leaseId }, visibleAtMs: atMs + 300_000 },
    ]);
  });

  it('cancels the expiry of a lease that had a lifetime', async () => {
    const plane = fakeControlPlane();
    const lease = await runningLease(plane, { durationMinutes: 120 });
    expect(plane.expiry.armed.has(lease.leaseId)).toBe(true);
    await requestRelease(plane, TENANT, lease.leaseId);
    await completeRelease(plane, TENANT, lease.leaseId);

    expect(plane.expiry.armed.has(lease.leaseId)).toBe(false);
  });
});
