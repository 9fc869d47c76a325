import { describe, expect, it } from 'vitest';
import { expireLease } from '../../../shared/usecases/release-lease';
import { fakeControlPlane } from '../../support/fakes/control-plane';
import { requestLease, runningLease, TENANT } from '../../support/fakes/leases';

const MINUTE = 60_000;

describe('lease lifetimes', () => {
  it('a lease asking for a lifetime gets its expiry armed before provisioning is queued', async () => {
    const plane = fakeControlPlane();
    const lease = await requestLease(plane, { durationMinutes: 90 });

    expect(lease.expiresAtMs).toBe(plane.now() + 90 * MINUTE);
    expect(plane.expiry.armed.get(lease.leaseId)).toEqual({
      tenantId: TENANT,
      atMs: plane.now() + 90 * MINUTE,
    });
    expect(plane.events.ofType('LeaseRequested')[0]?.detail.expiresAtMs).toBe(lease.expiresAtMs);
  });

  it("a lease asking for none takes the tenant's default lifetime", async () => {
    const plane = fakeControlPlane();
    await plane.settings.put(TENANT, { defaultLeaseDurationMinutes: 30 });

    const lease = await requestLease(plane);

    expect(plane.expiry.armed.get(lease.leaseId)?.atMs).toBe(plane.now() + 30 * MINUTE);
  });

  it('the expiry firing releases the lease as a DELETE would, once', async () => {
    const plane = fakeControlPlane();
    const lease = await runningLease(plane, { durationMinutes: 60 });
    plane.clock.advance(60 * MINUTE);

    expect(await expireLease(plane, TENANT, lease.leaseId)).toBe('expired');
    expect(plane.leases.peek(TENANT, lease.leaseId)?.status).toBe('RELEASING');
    expect(plane.commands.commands().filter((c) => c.type === 'release')).toHaveLength(1);

    expect(await expireLease(plane, TENANT, lease.leaseId)).toBe('already-ended');
    expect(plane.commands.commands().filter((c) => c.type === 'release')).toHaveLength(1);
    expect(await expireLease(plane, TENANT, 'lease_gone')).toBe('missing');
  });

  it('queuing that fails removes the lease and its schedule again', async () => {
    const plane = fakeControlPlane();
    plane.commands.faults.failNext('send', new Error('SQS unavailable'));

    await expect(requestLease(plane, { durationMinutes: 60 })).rejects.toThrow('SQS unavailable');

    expect((await plane.leases.list(TENANT, 10)).leases).toEqual([]);
    expect(plane.expiry.armed.size).toBe(0);
    expect(plane.events.published).toEqual([]);
  });
});
