import { describe, expect, it } from 'vitest';
import type { WarmPoolSpec } from '../../../shared/domain/warm-pools/pool';
import { CapacityUnavailableError } from '../../../shared/ports/compute';
import { fillWarmPools } from '../../../shared/usecases/fill-warm-pools';
import { promoteImageVersion, registerImageVersion, rollbackImage } from '../../../shared/usecases/images';
import { meterOpenInstances } from '../../../shared/usecases/metering';
import { reconcileFleet } from '../../../shared/usecases/reconcile-fleet';
import { putWarmPool } from '../../../shared/usecases/warm-pools';
import { type FakeControlPlane, fakeControlPlane } from '../../support/fakes/control-plane';
import { runningLease } from '../../support/fakes/leases';

const IMAGE = 'gpu-base';
const POOL: WarmPoolSpec = {
  name: 'g5-east',
  region: 'us-east-1',
  instanceType: 'g5.xlarge',
  size: 2,
  image: IMAGE,
  prePull: ['ghcr.io/acme/trainer:1.4'],
};

const warmPlane = fakeControlPlane;
type Plane = FakeControlPlane;

async function imageVersion(plane: FakeControlPlane, version: string) {
  await registerImageVersion(plane, IMAGE, version, { 'us-east-1': 'ami-0123456789abcdef0' });
  await promoteImageVersion(plane, IMAGE, version);
}

/** Runs the filler until the pool settles: launch, every machine signals ready, stop, ready. */
async function fillAndSettle(plane: Plane) {
  // Each run is a minute after the last, as the schedule runs it.
  plane.clock.advance(60_000);
  await fillWarmPools(plane);
  for (const instance of plane.compute.live())
    if (instance.warmPool) plane.compute.signalReady(instance.instanceId);
  await fillWarmPools(plane);
  await fillWarmPools(plane);
}

const ready = async (plane: Plane) =>
  (await plane.warmPools.listMachines()).filter((m) => m.state === 'ready');

async function readyPool(spec: Partial<WarmPoolSpec> = {}) {
  const plane = warmPlane();
  await imageVersion(plane, 'v1');
  await putWarmPool(plane, { ...POOL, ...spec });
  await fillAndSettle(plane);
  return plane;
}

describe('the warm-pool filler', () => {
  it('launches the pool from the image version with the warm tag, stops machines once ready and keeps them stopped', async () => {
    const plane = await readyPool();
    const machines = await ready(plane);
    expect(machines.map((m) => m.imageVersion)).toEqual(['gpu-base:v1', 'gpu-base:v1']);
    const instances = plane.compute.live().filter((i) => i.warmPool === 'g5-east');
    expect(instances.map((i) => i.state)).toEqual(['stopped', 'stopped']);
    expect(instances.every((i) => i.leaseId === undefined)).toBe(true);
  });

  it('does not stop a machine before it signals ready', async () => {
    const plane = warmPlane();
    await imageVersion(plane, 'v1');
    await putWarmPool(plane, POOL);
    await fillWarmPools(plane);
    await fillWarmPools(plane);
    expect(plane.compute.live().map((i) => i.state)).toEqual(['running', 'running']);
    expect(await ready(plane)).toEqual([]);
  });

  it('counts only the ready signal of the image version the machine was launched from', async () => {
    const plane = warmPlane();
    await imageVersion(plane, 'v1');
    await putWarmPool(plane, { ...POOL, size: 1 });
    await fillWarmPools(plane);
    const [instance] = plane.compute.live();
    plane.compute.signalReady(instance?.instanceId ?? '', 'gpu-base:v0');
    await fillWarmPools(plane);
    expect(plane.compute.live().map((i) => i.state)).toEqual(['running']);
    plane.compute.signalReady(instance?.instanceId ?? '');
    await fillWarmPools(plane);
    await fillWarmPools(plane);
    expect((await ready(plane)).map((m) => m.instanceId)).toEqual([instance?.instanceId]);
  });

  it('keeps size through uses: a lease takes a machine, the filler is asked and launches its successor', async () => {
    const plane = await readyPool();
    await runningLease(plane, { mode: 'on-demand' });
    expect(plane.warmFill.requested).toEqual(['g5-east']);
    expect(await ready(plane)).toHaveLength(1);
    await fillAndSettle(plane);
    expect(await ready(plane)).toHaveLength(2);
  });

  it('keeps size through failures to start: a refused launch is tried in the next zone, an instance EC2 ends is replaced', async () => {
    const plane = warmPlane();
    await imageVersion(plane, 'v1');
    plane.compute.insufficientCapacity({ mode: 'on-demand', instanceType: 'g5.xlarge', zone: 'us-east-1a' });
    await putWarmPool(plane, POOL);
    await fillAndSettle(plane);
    const machines = await ready(plane);
    expect(machines.map((m) => m.zone)).toEqual(['us-east-1b', 'us-east-1b']);
    plane.compute.reclaim(machines[0]?.instanceId ?? '');
    await fillAndSettle(plane);
    const after = await ready(plane);
    expect(after).toHaveLength(2);
    expect(after.map((m) => m.instanceId)).not.toContain(machines[0]?.instanceId);
  });

  it('replaces machines whose image version is no longer current, on a promotion and on a rollback', async () => {
    const plane = await readyPool();
    await imageVersion(plane, 'v2');
    await fillAndSettle(plane);
    expect((await ready(plane)).map((m) => m.imageVersion)).toEqual(['gpu-base:v2', 'gpu-base:v2']);
    await rollbackImage(plane, IMAGE);
    await fillAndSettle(plane);
    expect((await ready(plane)).map((m) => m.imageVersion)).toEqual(['gpu-base:v1', 'gpu-base:v1']);
    expect(plane.compute.live().filter((i) => i.warmPool)).toHaveLength(2);
  });
});

describe('leases served warm', () => {
  it('an on-demand lease starts a stopped machine, tagged to the lease, and shows start: warm', async () => {
    const plane = await readyPool({ size: 1 });
    const [machine] = await ready(plane);
    const lease = await runningLease(plane, { mode: 'on-demand' });
    expect(lease.placement?.start).toBe('warm');
    expect(lease.instances.map((i) => i.instanceId)).toEqual([machine?.instanceId]);
    const instance = plane.compute.live().find((i) => i.instanceId === machine?.instanceId);
    expect(instance).toMatchObject({ state: 'running', leaseId: lease.leaseId });
    expect(instance?.warmPool).toBeUndefined();
    expect(await plane.warmPools.listMachines()).toEqual([]);
  });

  it('spot leases and leases of other types launch cold', async () => {
    const plane = await readyPool({ size: 1 });
    const spot = await runningLease(plane, { mode: 'spot', workload: 'batch' });
    expect(spot.placement?.start).toBe('cold');
    const other = await runningLease(plane, { mode: 'on-demand', instanceType: 'g6.xlarge' });
    expect(other.placement?.start).toBe('cold');
    expect(await ready(plane)).toHaveLength(1);
  });

  it('a warm machine’s stopped time is not billed to the lease that starts it: metered from the start at on-demand', async () => {
    const plane = await readyPool({ size: 1 });
    // The machine sits stopped for six hours.
    plane.clock.advance(6 * 3_600_000);
    const lease = await runningLease(plane, { mode: 'on-demand' });
    const [record] = lease.instances;
    expect(record?.launchedAtMs).toBe(plane.now());
    const price = plane.catalog.onDemandMicroPerHour('g5.xlarge', 'us-east-1');
    expect(record?.priceMicroUsdPerHour).toBe(price);
    await meterOpenInstances(plane, plane.now() + 600_000);
    const billed = plane.leases.peek(lease.tenantId, lease.leaseId)?.instances[0];
    expect(billed?.billedSeconds).toBe(600);
    expect(billed?.billedMicroUsd).toBe(Math.round((price * 600) / 3600));
  });

  it('a warm machine’s stopped volume is the fleet’s until the claim, the lease’s from its start', async () => {
    const plane = await readyPool({ size: 1 });
    const [machine] = await ready(plane);
    // Stopped three hours, a filler run (metering the fleet's share so far), three more hours.
    plane.clock.advance(3 * 3_600_000);
    await fillWarmPools(plane);
    plane.clock.advance(3 * 3_600_000);
    const lease = await runningLease(plane, { mode: 'on-demand' });
    expect(lease.instances.map((i) => i.instanceId)).toEqual([machine?.instanceId]);
    await meterOpenInstances(plane, plane.now() + 600_000);
    // The filler runs again after the start: the stretch is closed, nothing more.
    await fillWarmPools(plane);

    // Fleet: 200 GiB × 21,600 s at $0.08/GB-month = 200 × 21,600 × 80,000 ÷ 2,592,000 = 133,333.3 µ$.
    expect(await plane.fleetStorage.monthTotal('2026-11')).toBe(133_333);
    // Lease: 600 s of compute at $1.006/h = 167,666.7 µ$; its volume 200 × 600 × 80,000 ÷ 2,592,000 = 3,703.7 µ$.
    const charges = plane.ledger.usage.flatMap((record) => record.charges);
    expect(charges.map((c) => [c.dimension, c.seconds, c.microUsd])).toEqual([
      ['compute', 600, 167_667],
      ['storage', 600, 3_704],
    ]);
  });

  it('EC2 refusing to start a warm machine: the lease launches cold, the machine ends, the filler keeps size', async () => {
    const plane = await readyPool({ size: 1 });
    const [machine] = await ready(plane);
    plane.compute.faults.failNext(
      'startForLease',
      new CapacityUnavailableError('on-demand', 'g5.xlarge', 'InsufficientInstanceCapacity', 'us-east-1a'),
    );
    const lease = await runningLease(plane, { mode: 'on-demand' });
    expect(lease.placement?.start).toBe('cold');
    expect(lease.instances.map((i) => i.instanceId)).not.toContain(machine?.instanceId);
    expect(plane.compute.live().map((i) => i.instanceId)).not.toContain(machine?.instanceId);
    expect(plane.warmFill.requested).toEqual(['g5-east']);
    await fillAndSettle(plane);
    const refilled = await ready(plane);
    expect(refilled).toHaveLength(1);
    expect(refilled[0]?.instanceId).not.toBe(machine?.instanceId);
  });

  it('a start failing otherwise ends the claimed machine and fails the attempt, so a retry cannot adopt it stopped', async () => {
    const plane = await readyPool({ size: 1 });
    const [machine] = await ready(plane);
    plane.compute.faults.failNext('startForLease', new Error('RequestExpired'));
    await expect(runningLease(plane, { mode: 'on-demand' })).rejects.toThrow('RequestExpired');
    expect(plane.compute.live().map((i) => i.instanceId)).not.toContain(machine?.instanceId);
    expect(await plane.warmPools.listMachines()).toEqual([]);
  });

  it('two leases racing for one warm machine: one gets it, the other launches cold', async () => {
    const plane = await readyPool({ size: 1 });
    const [machine] = await ready(plane);
    const [a, b] = await Promise.all([
      runningLease(plane, { mode: 'on-demand' }),
      runningLease(plane, { mode: 'on-demand' }),
    ]);
    expect([a.placement?.start, b.placement?.start].sort()).toEqual(['cold', 'warm']);
    const ids = [...a.instances, ...b.instances].map((i) => i.instanceId);
    expect(new Set(ids).size).toBe(2);
    expect(ids).toContain(machine?.instanceId);
  });
});

describe('the reconciler and warm machines', () => {
  it('keeps stopped warm machines and ends a started one that no lease owns', async () => {
    const plane = await readyPool();
    const [kept, started] = await ready(plane);
    // Started outside any lease (a console start, a claim whose lease died before the retag).
    plane.compute.addInstance({
      region: 'us-east-1',
      zone: 'us-east-1a',
      instanceType: 'g5.xlarge',
      mode: 'on-demand',
      launchedAtMs: plane.now(),
      warmPool: 'g5-east',
    });
    const summary = await reconcileFleet(plane);
    expect(summary.terminated).toBe(1);
    const live = plane.compute.live().map((i) => i.instanceId);
    expect(live).toEqual(expect.arrayContaining([kept?.instanceId, started?.instanceId]));
  });

  it('keeps a warm machine still initialising', async () => {
    const plane = warmPlane();
    await imageVersion(plane, 'v1');
    await putWarmPool(plane, POOL);
    await fillWarmPools(plane);
    expect((await reconcileFleet(plane)).terminated).toBe(0);
  });
});
