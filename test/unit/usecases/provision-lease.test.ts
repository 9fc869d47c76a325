import { describe, expect, it, vi } from 'vitest';
import { ComputeThrottledError, type LaunchRequest } from '../../../shared/ports/compute';
import { admitQueued } from '../../../shared/usecases/admission/queue';
import { provisionLease } from '../../../shared/usecases/provision-lease';
import { fakeControlPlane } from '../../support/fakes/control-plane';
import { CrashError } from '../../support/fakes/faults';
import { requestLease, TENANT } from '../../support/fakes/leases';

const launches = (plane: ReturnType<typeof fakeControlPlane>) =>
  plane.compute.faults.callsOf('launch').map(([request]) => request as LaunchRequest);
const where = (r: LaunchRequest) => `${r.mode} ${r.instanceType} ${r.zone}`;

describe('provisioning a lease when EC2 refuses capacity', () => {
  it('falls back across pools, zone by zone then region, and says which refused', async () => {
    const plane = fakeControlPlane();
    plane.compute.insufficientCapacity({ mode: 'on-demand', instanceType: 'g5.xlarge', region: 'us-east-1' });
    const lease = await requestLease(plane);

    expect(await provisionLease(plane, TENANT, lease.leaseId)).toBe('running');

    expect(launches(plane).map(where)).toEqual([
      'on-demand g5.xlarge us-east-1a',
      'on-demand g5.xlarge us-east-1b',
      'on-demand g5.xlarge us-west-2a',
    ]);
    const stored = plane.leases.peek(TENANT, lease.leaseId);
    expect(stored?.status).toBe('RUNNING');
    expect(stored?.placement?.zone).toBe('us-west-2a');
    expect(stored?.placement?.reason).toContain(
      'refused first: on-demand/us-east-1/us-east-1a/g5.xlarge (InsufficientInstanceCapacity)',
    );
    expect(stored?.instances.map((i) => i.region)).toEqual(['us-west-2']);
    expect(plane.metrics.launchFailures).toEqual([
      { mode: 'on-demand', code: 'InsufficientInstanceCapacity' },
      { mode: 'on-demand', code: 'InsufficientInstanceCapacity' },
    ]);
    expect(plane.placement.unavailable.size).toBe(2);
    expect(plane.events.types()).toEqual(['LeaseRequested', 'LeaseRunning']);
  });

  it('moves batch from spot to on-demand when no spot pool has capacity', async () => {
    const plane = fakeControlPlane();
    plane.compute.insufficientCapacity({ mode: 'spot', instanceType: 'g5.xlarge' });
    const lease = await requestLease(plane, { workload: 'batch' });

    expect(await provisionLease(plane, TENANT, lease.leaseId)).toBe('running');

    expect(launches(plane).filter((r) => r.mode === 'spot')).toHaveLength(3);
    const stored = plane.leases.peek(TENANT, lease.leaseId);
    expect(stored?.placement?.mode).toBe('on-demand');
    expect(stored?.instances.map((i) => i.mode)).toEqual(['on-demand']);
  });

  // #19: no room in any allowed pool queues the lease (it used to fail), launching nothing.
  it('queues the lease for capacity, launching nothing, when every allowed pool refused', async () => {
    const plane = fakeControlPlane();
    plane.compute.insufficientCapacity({ mode: 'on-demand', instanceType: 'g5.xlarge' });
    const lease = await requestLease(plane);

    expect(await provisionLease(plane, TENANT, lease.leaseId)).toBe('queued');

    const stored = plane.leases.peek(TENANT, lease.leaseId);
    expect(stored?.status).toBe('QUEUED');
    expect(stored?.queue).toMatchObject({ reason: 'capacity', position: 1, estimateBasis: 'after-refusal' });
    expect(plane.compute.live()).toEqual([]);
    expect(plane.events.ofType('LeaseFailed')).toEqual([]);
    expect(plane.events.ofType('LeaseQueued').map((e) => e.detail.leaseId)).toEqual([lease.leaseId]);
    // What admission gave it is given back while it waits.
    expect((await plane.admission.tenant(TENANT))?.usage.gpus).toBe(0);
  });

  // On DynamoDB the queue index may not show the requeue to the pass right after it.
  it('says until when a refused lease waits even when the pass after the refusal does not list it yet', async () => {
    const plane = fakeControlPlane();
    plane.compute.insufficientCapacity({ mode: 'on-demand', instanceType: 'g5.xlarge' });
    const lease = await requestLease(plane);
    const snapshot = plane.admission.snapshot.bind(plane.admission);
    vi.spyOn(plane.admission, 'snapshot').mockImplementation(async () => {
      const all = await snapshot();
      return { ...all, queue: all.queue.filter((waiting) => waiting.refused === undefined) };
    });

    expect(await provisionLease(plane, TENANT, lease.leaseId)).toBe('queued');

    const entry = await plane.admission.entry(lease.leaseId);
    expect(entry?.lease.refused).toBeDefined();
    const joinedAtMs = entry?.lease.queuedAtMs as number;
    expect(plane.leases.peek(TENANT, lease.leaseId)?.queue).toEqual({
      reason: 'capacity',
      position: 1,
      estimatedStartAtMs: entry?.lease.refused?.atMs,
      estimateBasis: 'after-refusal',
      waitEndsAtMs: joinedAtMs + (entry?.lease.maxWaitMinutes as number) * 60_000,
    });
  });

  // The container's unavailable-offerings marks must not turn the wait into a failure.
  it('queues, asking EC2 nothing, a lease whose every pool this container backs off after refusals', async () => {
    const plane = fakeControlPlane();
    // Each of the three on-demand g5.xlarge pools of the fake fleet refuses once.
    plane.compute.insufficientCapacity({ mode: 'on-demand', instanceType: 'g5.xlarge' }, undefined, 3);
    const first = await requestLease(plane);
    expect(await provisionLease(plane, TENANT, first.leaseId)).toBe('queued');
    const tried = launches(plane).length;
    expect(tried).toBe(3);

    const second = await requestLease(plane);
    expect(await provisionLease(plane, TENANT, second.leaseId)).toBe('queued');
    expect(launches(plane)).toHaveLength(tried);
    const stored = plane.leases.peek(TENANT, second.leaseId);
    expect(stored?.status).toBe('QUEUED');
    expect(stored?.queue?.reason).toBe('capacity');
    expect(plane.events.ofType('LeaseFailed')).toEqual([]);

    // Capacity is back once the back-off is over: a pass admits both and they run.
    plane.clock.advance(3 * 60_000);
    await admitQueued(plane);
    for (const lease of [first, second]) {
      expect(plane.leases.peek(TENANT, lease.leaseId)?.status).toBe('PENDING');
      expect(await provisionLease(plane, TENANT, lease.leaseId)).toBe('running');
    }
  });

  it('skips a pool that refused lately in this container without asking EC2 again', async () => {
    const plane = fakeControlPlane();
    plane.compute.insufficientCapacity(
      { mode: 'on-demand', instanceType: 'g5.xlarge', zone: 'us-east-1a' },
      undefined,
      1,
    );
    const first = await requestLease(plane);
    await provisionLease(plane, TENANT, first.leaseId);
    const second = await requestLease(plane);
    await provisionLease(plane, TENANT, second.leaseId);

    expect(launches(plane).map((r) => r.zone)).toEqual(['us-east-1a', 'us-east-1b', 'us-east-1b']);
  });
});

describe('provisioning a lease when EC2 throttles', () => {
  it('throws for the queue to retry, leaving the lease PENDING with nothing launched', async () => {
    const plane = fakeControlPlane();
    plane.compute.throttle('launch');
    const lease = await requestLease(plane);

    await expect(provisionLease(plane, TENANT, lease.leaseId)).rejects.toBeInstanceOf(ComputeThrottledError);
    expect(plane.leases.peek(TENANT, lease.leaseId)?.status).toBe('PENDING');
    expect(plane.compute.live()).toEqual([]);

    expect(await provisionLease(plane, TENANT, lease.leaseId)).toBe('running');
    expect(plane.compute.live()).toHaveLength(1);
  });
});

describe('provisioning a lease after a crash mid-launch', () => {
  it('adopts the instance EC2 launched before the crash and launches nothing twice', async () => {
    const plane = fakeControlPlane();
    plane.compute.faults.crashAfterNext('launch');
    const lease = await requestLease(plane);

    await expect(provisionLease(plane, TENANT, lease.leaseId)).rejects.toBeInstanceOf(CrashError);
    expect(plane.compute.live()).toHaveLength(1);
    expect(plane.leases.peek(TENANT, lease.leaseId)?.instances).toEqual([]);

    expect(await provisionLease(plane, TENANT, lease.leaseId)).toBe('running');
    expect(launches(plane)).toHaveLength(1);
    const stored = plane.leases.peek(TENANT, lease.leaseId);
    expect(stored?.instances.map((i) => i.instanceId)).toEqual(plane.compute.live().map((i) => i.instanceId));
    expect(stored?.placement?.reason).toContain('adopted');
    expect(stored?.instances[0]?.priceMicroUsdPerHour).toBe(
      plane.catalog.onDemandMicroPerHour('g5.xlarge', 'us-east-1'),
    );
  });

  it('looks for no earlier instance of a lease admitted as it joined, and does on a redelivery', async () => {
    const plane = fakeControlPlane();
    const lookups = vi.spyOn(plane.compute, 'instancesOfLease');
    const fresh = await requestLease(plane);

    // Admission never knew it before this delivery, so nothing can have launched for it.
    expect(await provisionLease(plane, TENANT, fresh.leaseId)).toBe('running');
    expect(lookups).not.toHaveBeenCalled();

    plane.compute.faults.crashAfterNext('launch');
    const crashed = await requestLease(plane);
    await expect(provisionLease(plane, TENANT, crashed.leaseId)).rejects.toBeInstanceOf(CrashError);
    // The redelivery finds the lease admitted already: it looks, and adopts what the crash left.
    expect(await provisionLease(plane, TENANT, crashed.leaseId)).toBe('running');
    expect(lookups).toHaveBeenCalledWith(crashed.leaseId);
  });

  it('a redelivery after the instances were recorded only marks the lease RUNNING', async () => {
    const plane = fakeControlPlane();
    plane.leases.faults.crashAfterNext('recordInstances');
    const lease = await requestLease(plane);

    await expect(provisionLease(plane, TENANT, lease.leaseId)).rejects.toBeInstanceOf(CrashError);
    expect(plane.leases.peek(TENANT, lease.leaseId)?.instances).toHaveLength(1);

    expect(await provisionLease(plane, TENANT, lease.leaseId)).toBe('running');
    expect(launches(plane)).toHaveLength(1);
    expect(plane.events.ofType('LeaseRunning')).toHaveLength(1);
  });

  it('a lease released while its instances launched ends them and is RELEASED, not RUNNING', async () => {
    const plane = fakeControlPlane();
    const lease = await requestLease(plane);
    // The tenant's DELETE lands between the launch and the PENDING → RUNNING write.
    plane.compute.faults.interleave('launch', () =>
      plane.leases.transition(TENANT, lease.leaseId, ['PENDING'], 'RELEASING', plane.now(), {
        releaseRequestedAtMs: plane.now(),
      }),
    );

    expect(await provisionLease(plane, TENANT, lease.leaseId)).toBe('released');

    expect(plane.leases.peek(TENANT, lease.leaseId)?.status).toBe('RELEASED');
    expect(plane.compute.live()).toEqual([]);
    expect(plane.events.types()).toEqual(['LeaseRequested', 'LeaseReleased']);
  });

  it('a duplicate delivery of a RUNNING lease does nothing', async () => {
    const plane = fakeControlPlane();
    const lease = await requestLease(plane);
    await provisionLease(plane, TENANT, lease.leaseId);

    expect(await provisionLease(plane, TENANT, lease.leaseId)).toBe('not-pending');
    expect(launches(plane)).toHaveLength(1);
    expect(await provisionLease(plane, TENANT, 'lease_missing')).toBe('missing');
  });
});

describe('what follows RUNNING', () => {
  it('is prepared before the launch and runs beside the LeaseRunning announcement; its failure fails the delivery', async () => {
    const plane = fakeControlPlane();
    const lease = await requestLease(plane);
    const seen: string[] = [];
    const outcome = provisionLease(plane, TENANT, lease.leaseId, undefined, (pending) => {
      seen.push(pending.status);
      return async () => {
        seen.push(plane.leases.peek(TENANT, lease.leaseId)?.status ?? 'missing');
        throw new CrashError('task start');
      };
    });

    await expect(outcome).rejects.toThrow('task start');
    // Prepared before the launch, on the lease as read; run once it is RUNNING.
    expect(seen).toEqual(['PENDING', 'RUNNING']);
    // The announcement was not cut short by the failure beside it.
    expect(plane.events.types()).toEqual(['LeaseRequested', 'LeaseRunning']);
  });
});
