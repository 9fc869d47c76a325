import { describe, expect, it } from 'vitest';
import { STUCK_AFTER_MS } from '../../../shared/usecases/lease-repairs';
import { reconcileFleet } from '../../../shared/usecases/reconcile-fleet';
import { completeRelease, requestRelease } from '../../../shared/usecases/release-lease';
import { VANISHED_GRACE_MS } from '../../../shared/usecases/vanished-instances';
import { type FakeControlPlane, fakeControlPlane } from '../../support/fakes/control-plane';
import { requestLease, runningLease, TENANT } from '../../support/fakes/leases';

const g5 = (plane: FakeControlPlane, tags: { leaseId?: string; tenantId?: string } = {}) =>
  plane.compute.addInstance({
    region: 'us-east-1',
    zone: 'us-east-1a',
    instanceType: 'g5.xlarge',
    mode: 'on-demand',
    launchedAtMs: plane.now(),
    ...tags,
  });

describe('reconciling the fleet: no GPU runs unseen', () => {
  it('terminates instances of no lease, of an unknown lease and of an ended lease, and says so', async () => {
    const plane = fakeControlPlane();
    const untagged = g5(plane);
    const unknown = g5(plane, { leaseId: 'lease_unknown', tenantId: TENANT });
    const ended = await runningLease(plane);
    await requestRelease(plane, TENANT, ended.leaseId);
    await completeRelease(plane, TENANT, ended.leaseId);
    const late = g5(plane, { leaseId: ended.leaseId, tenantId: TENANT });

    const summary = await reconcileFleet(plane);

    expect(summary).toMatchObject({ terminated: 3, adopted: 0, repairs: { 'provision-resent': 0 } });
    expect(plane.compute.live()).toEqual([]);
    expect(
      plane.events
        .ofType('OrphanInstanceTerminated')
        .map((e) => e.detail.instanceId)
        .sort(),
    ).toEqual([untagged.instanceId, unknown.instanceId, late.instanceId].sort());
  });

  it('records a live instance a RUNNING lease does not know and lacks, so it is billed', async () => {
    const plane = fakeControlPlane();
    const lease = await runningLease(plane, { gpus: 2 });
    // The worker that launched the second GPU died before recording it; the lease runs on one.
    const recorded = lease.instances[1]?.instanceId ?? '';
    plane.leases.forgetInstance(TENANT, lease.leaseId, recorded);

    expect((await reconcileFleet(plane)).adopted).toBe(1);

    const stored = plane.leases.peek(TENANT, lease.leaseId);
    expect(stored?.instances.find((i) => i.instanceId === recorded)).toMatchObject({
      meteringOpen: true,
      priceMicroUsdPerHour: plane.catalog.onDemandMicroPerHour('g5.xlarge', 'us-east-1'),
    });
    expect(plane.compute.live()).toHaveLength(2);
  });

  it('ends a stray of a RUNNING lease that already holds its GPUs: a lease never holds more than it asked for', async () => {
    const plane = fakeControlPlane();
    const lease = await runningLease(plane);
    const extra = g5(plane, { leaseId: lease.leaseId, tenantId: TENANT });

    expect(await reconcileFleet(plane)).toMatchObject({ adopted: 0, terminated: 1 });

    expect(plane.leases.peek(TENANT, lease.leaseId)?.instances.map((i) => i.instanceId)).not.toContain(
      extra.instanceId,
    );
    expect(plane.compute.live().map((i) => i.instanceId)).toEqual(lease.instances.map((i) => i.instanceId));
  });

  it('sends the command of a lease stuck in PENDING again, not of one that just arrived', async () => {
    const plane = fakeControlPlane();
    const lease = await requestLease(plane);
    g5(plane, { leaseId: lease.leaseId, tenantId: TENANT });

    expect((await reconcileFleet(plane)).repairs['provision-resent']).toBe(0);
    plane.clock.advance(STUCK_AFTER_MS + 1);
    expect((await reconcileFleet(plane)).repairs['provision-resent']).toBe(1);
    expect(plane.commands.commands().filter((c) => c.type === 'provision')).toHaveLength(2);
  });

  it('stamps the end of a billed instance EC2 no longer knows, after the grace, and interrupts its lease', async () => {
    const plane = fakeControlPlane();
    const lease = await runningLease(plane);
    const [instance] = lease.instances;
    plane.compute.forget(instance?.instanceId ?? '');

    expect((await reconcileFleet(plane)).ended).toBe(0);
    plane.clock.advance(VANISHED_GRACE_MS);
    expect((await reconcileFleet(plane)).ended).toBe(1);

    const stored = plane.leases.peek(TENANT, lease.leaseId);
    expect(stored?.instances[0]?.endedAtMs).toBe(plane.now());
    expect(stored?.status).toBe('INTERRUPTED');
    expect((await reconcileFleet(plane)).ended).toBe(0);
  });

  it('stamps a terminated instance at its state transition, not at the time it was noticed', async () => {
    const plane = fakeControlPlane();
    const lease = await runningLease(plane);
    const [instance] = lease.instances;
    plane.clock.advance(600_000);
    const terminatedAt = plane.now();
    plane.compute.reclaim(instance?.instanceId ?? '', terminatedAt);
    plane.clock.advance(600_000);

    await reconcileFleet(plane);

    expect(plane.leases.peek(TENANT, lease.leaseId)?.instances[0]?.endedAtMs).toBe(terminatedAt);
  });
});
