import { describe, expect, it } from 'vitest';
import { evaluateScalingGroups, type ScalingDeps } from '../../../shared/usecases/evaluate-scaling-groups';
import { watchedGpus } from '../../../shared/usecases/gpu-health-sweep';
import { type FakeControlPlane, fakeControlPlane } from '../../support/fakes/control-plane';
import { runningLease, TENANT } from '../../support/fakes/leases';

const MINUTE = 60_000;
const LIMIT_C = 85;
const sweepDeps = (plane: FakeControlPlane): ScalingDeps => ({
  ...plane,
  metrics: plane.metricReader,
  temperatureLimitC: LIMIT_C,
});

/** The GPU's hottest reading a minute ago, as the CloudWatch agent would have published it. */
async function reading(plane: FakeControlPlane, celsius: number) {
  const [gpu] = watchedGpus(plane.catalog, await plane.leases.openInstances());
  if (!gpu) throw new Error('no GPU watched');
  plane.metricReader.set(gpu.query, [{ timestampMs: plane.now() - MINUTE, value: celsius }]);
  return gpu;
}

describe('the GPU health sweep (run by every scaling evaluation)', () => {
  it('reports a GPU that turned hot once per episode, and again after it recovered and relapsed', async () => {
    const plane = fakeControlPlane();
    const lease = await runningLease(plane);
    plane.clock.advance(10 * MINUTE);
    const gpu = await reading(plane, 91);

    expect((await evaluateScalingGroups(sweepDeps(plane), plane.now())).unhealthyGpus).toBe(1);
    plane.clock.advance(MINUTE);
    await reading(plane, 92);
    expect((await evaluateScalingGroups(sweepDeps(plane), plane.now())).unhealthyGpus).toBe(0);
    plane.clock.advance(MINUTE);
    await reading(plane, 70);
    expect((await evaluateScalingGroups(sweepDeps(plane), plane.now())).unhealthyGpus).toBe(0);
    expect(await plane.marks.marked()).toEqual([]);
    plane.clock.advance(MINUTE);
    await reading(plane, 95);
    expect((await evaluateScalingGroups(sweepDeps(plane), plane.now())).unhealthyGpus).toBe(1);

    expect(
      plane.events.ofType('GpuUnhealthy').map((e) => [e.tenantId, e.detail.leaseId, e.detail.status]),
    ).toEqual([
      [TENANT, lease.leaseId, 'hot'],
      [TENANT, lease.leaseId, 'hot'],
    ]);
    expect(gpu.instance.instanceId).toBe(lease.instances[0]?.instanceId);
  });

  it('reports a GPU that stopped reporting as silent, not before the silence limit', async () => {
    const plane = fakeControlPlane();
    await runningLease(plane);
    plane.clock.advance(4 * MINUTE);
    expect((await evaluateScalingGroups(sweepDeps(plane), plane.now())).unhealthyGpus).toBe(0);
    plane.clock.advance(MINUTE);

    expect((await evaluateScalingGroups(sweepDeps(plane), plane.now())).unhealthyGpus).toBe(1);
    expect(plane.events.ofType('GpuUnhealthy').map((e) => e.detail.status)).toEqual(['silent']);
  });

  it('watches every GPU of a multi-GPU instance: the one that stopped reporting is reported silent', async () => {
    const plane = fakeControlPlane();
    const lease = await runningLease(plane, { gpus: 4, instanceType: 'g5.12xlarge' });
    plane.clock.advance(5 * MINUTE);
    const gpus = watchedGpus(plane.catalog, await plane.leases.openInstances());
    expect(gpus.map((g) => g.gpuIndex)).toEqual([0, 1, 2, 3]);
    for (const gpu of gpus.filter((g) => g.gpuIndex !== 2))
      plane.metricReader.set(gpu.query, [{ timestampMs: plane.now() - MINUTE, value: 60 }]);

    expect((await evaluateScalingGroups(sweepDeps(plane), plane.now())).unhealthyGpus).toBe(1);
    expect(
      plane.events.ofType('GpuUnhealthy').map((e) => [e.detail.leaseId, e.detail.gpuIndex, e.detail.status]),
    ).toEqual([[lease.leaseId, 2, 'silent']]);
  });
});
