import { describe, expect, it } from 'vitest';
import { EC2_EVENT_TYPES, type Ec2Event } from '../../../shared/domain/ec2-events';
import { handleEc2Event, replaceInterrupted } from '../../../shared/usecases/interruptions';
import { type FakeControlPlane, fakeControlPlane } from '../../support/fakes/control-plane';
import { runningLease, TENANT } from '../../support/fakes/leases';

const warning = (plane: FakeControlPlane, instanceId: string): Ec2Event => ({
  id: `evt-${instanceId}`,
  source: 'aws.ec2',
  region: 'us-east-1',
  time: new Date(plane.now()).toISOString(),
  'detail-type': EC2_EVENT_TYPES.spotWarning,
  detail: { 'instance-id': instanceId, 'instance-action': 'terminate' },
});

const stateChange = (plane: FakeControlPlane, instanceId: string, state: string): Ec2Event => ({
  id: `evt-${instanceId}-${state}`,
  source: 'aws.ec2',
  region: 'us-east-1',
  time: new Date(plane.now()).toISOString(),
  'detail-type': EC2_EVENT_TYPES.stateChange,
  detail: { 'instance-id': instanceId, state },
});

async function spotLease(plane: FakeControlPlane) {
  const lease = await runningLease(plane, { workload: 'batch' });
  const instance = lease.instances[0];
  if (!instance) throw new Error('no instance');
  return { lease, instance };
}

describe('a spot interruption warning', () => {
  it('interrupts the lease once and queues its replacement for when AWS takes the instance', async () => {
    const plane = fakeControlPlane();
    const { lease, instance } = await spotLease(plane);

    expect(await handleEc2Event(plane, warning(plane, instance.instanceId))).toBe('interrupted');
    expect(await handleEc2Event(plane, warning(plane, instance.instanceId))).toBe('already-seen');

    expect(plane.leases.peek(TENANT, lease.leaseId)?.status).toBe('INTERRUPTED');
    expect(plane.events.ofType('LeaseInterrupted').map((e) => e.detail.instanceId)).toEqual([
      instance.instanceId,
    ]);
    const replace = plane.commands.sent.filter((q) => q.command.type === 'replace');
    expect(replace).toEqual([
      {
        command: {
          type: 'replace',
          tenantId: TENANT,
          leaseId: lease.leaseId,
          instanceId: instance.instanceId,
        },
        visibleAtMs: plane.now() + 120_000,
      },
    ]);
  });

  it('the replacement runs in another pool than the reclaimed one and the lease runs again', async () => {
    const plane = fakeControlPlane();
    const { lease, instance } = await spotLease(plane);
    await handleEc2Event(plane, warning(plane, instance.instanceId));
    plane.clock.advance(120_000);
    plane.compute.reclaim(instance.instanceId);

    expect(await replaceInterrupted(plane, TENANT, lease.leaseId, instance.instanceId)).toBe('replaced');

    const stored = plane.leases.peek(TENANT, lease.leaseId);
    expect(stored?.status).toBe('RUNNING');
    const replacement = stored?.instances.find((i) => i.instanceId !== instance.instanceId);
    expect(replacement).toMatchObject({ mode: 'spot', meteringOpen: true });
    expect(replacement?.zone).not.toBe(instance.zone);
    expect(plane.compute.live().map((i) => i.instanceId)).toEqual([replacement?.instanceId]);
    expect(plane.events.ofType('LeaseReplaced').map((e) => e.detail.replacedInstanceId)).toEqual([
      instance.instanceId,
    ]);
    expect(await replaceInterrupted(plane, TENANT, lease.leaseId, instance.instanceId)).toBe(
      'not-interrupted',
    );
  });

  it('with no capacity left anywhere for the replacement, the lease fails and its instances end', async () => {
    const plane = fakeControlPlane();
    const { lease, instance } = await spotLease(plane);
    await handleEc2Event(plane, warning(plane, instance.instanceId));
    plane.compute.insufficientCapacity({ mode: 'spot', instanceType: 'g5.xlarge' });
    plane.compute.insufficientCapacity({ mode: 'on-demand', instanceType: 'g5.xlarge' });

    expect(await replaceInterrupted(plane, TENANT, lease.leaseId, instance.instanceId)).toBe('failed');

    expect(plane.leases.peek(TENANT, lease.leaseId)?.status).toBe('FAILED');
    expect(plane.compute.live()).toEqual([]);
    expect(plane.events.ofType('LeaseFailed')).toHaveLength(1);
  });
});

describe('EC2 state changes', () => {
  it("an instance that ended closes its bill at the event's time and interrupts the lease", async () => {
    const plane = fakeControlPlane();
    const { lease, instance } = await spotLease(plane);
    plane.clock.advance(600_000);
    plane.compute.reclaim(instance.instanceId);

    expect(await handleEc2Event(plane, stateChange(plane, instance.instanceId, 'terminated'))).toBe(
      'bill-closed',
    );

    const stored = plane.leases.peek(TENANT, lease.leaseId);
    expect(stored?.instances[0]).toMatchObject({ meteringOpen: false, billedSeconds: 600 });
    expect(stored?.status).toBe('INTERRUPTED');
  });

  it('an instance of no lease is not ours', async () => {
    const plane = fakeControlPlane();
    expect(await handleEc2Event(plane, warning(plane, 'i-unknown'))).toBe('not-ours');
  });

  it('a rebalance recommendation marks the pool so the next launch avoids it', async () => {
    const plane = fakeControlPlane();
    const { instance } = await spotLease(plane);
    const event: Ec2Event = {
      ...warning(plane, instance.instanceId),
      'detail-type': EC2_EVENT_TYPES.rebalance,
      detail: { 'instance-id': instance.instanceId },
    };

    expect(await handleEc2Event(plane, event)).toBe('pool-marked');
    const next = await runningLease(plane, { workload: 'batch' });
    expect(next.instances[0]?.zone).not.toBe(instance.zone);
  });
});
