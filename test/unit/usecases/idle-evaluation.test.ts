import { describe, expect, it } from 'vitest';
import { gpuDimensions, gpuMetricNamespace, NVIDIA_SMI_METRICS } from '../../../shared/domain/gpu-telemetry';
import type { LeaseView } from '../../../shared/domain/lease';
import { gpusOfInstances } from '../../../shared/domain/waste/gpu-indexes';
import { type IdlePolicyInput, idlePolicySchema } from '../../../shared/domain/waste/idle-policy';
import { evaluateScalingGroups, type ScalingDeps } from '../../../shared/usecases/evaluate-scaling-groups';
import { idlePoliciesOf, putTenantIdlePolicy } from '../../../shared/usecases/idle/idle-policies';
import { meterOpenInstances } from '../../../shared/usecases/metering';
import * as z from '../../../shared/zod';
import { type FakeControlPlane, fakeControlPlane } from '../../support/fakes/control-plane';
import { runningLease, TENANT } from '../../support/fakes/leases';

const MINUTE = 60_000;
const policy = (input: IdlePolicyInput) => z.parse(idlePolicySchema, input);
const deps = (plane: FakeControlPlane): ScalingDeps => ({
  ...plane,
  metrics: plane.metricReader,
  temperatureLimitC: 85,
});

/** Per-minute utilization of each GPU of the lease from its launch on: `percentOf(gpuIndex, minute)`, undefined = no sample. */
function utilization(
  plane: FakeControlPlane,
  lease: LeaseView,
  minutes: number,
  percentOf: (gpuIndex: number, minute: number) => number | undefined,
) {
  const launchedAtMs = lease.instances[0]?.launchedAtMs ?? 0;
  for (const gpu of gpusOfInstances(plane.catalog, lease.instances)) {
    plane.metricReader.set(
      {
        namespace: gpuMetricNamespace(lease),
        metricName: NVIDIA_SMI_METRICS.utilization,
        dimensions: gpuDimensions(gpu.instanceId, gpu.gpuIndex),
        statistic: 'Average',
        periodSeconds: 60,
      },
      Array.from({ length: minutes }, (_, m) => ({
        timestampMs: launchedAtMs + m * MINUTE,
        value: percentOf(gpu.gpuIndex, m),
      })).filter((d): d is { timestampMs: number; value: number } => d.value !== undefined),
    );
  }
}

async function fourGpuLease(plane: FakeControlPlane, action: 'notify' | 'release') {
  await plane.idlePolicies.put(TENANT, 'tenant', policy({ action, forMinutes: 10 }));
  return runningLease(plane, { gpus: 4, instanceType: 'g5.12xlarge' });
}

describe('the idle evaluation (rides in the scaling evaluator)', () => {
  it('keeps a 4-GPU lease with one busy GPU: one GPU at work is a lease at work', async () => {
    const plane = fakeControlPlane();
    const lease = await fourGpuLease(plane, 'release');
    plane.clock.advance(20 * MINUTE);
    utilization(plane, lease, 20, (gpu) => (gpu === 3 ? 80 : 0));

    const summary = await evaluateScalingGroups(deps(plane), plane.now());

    expect(summary.idle).toMatchObject({ leasesJudged: 1, idleEpisodesOpened: 0, released: 0 });
    expect(plane.events.ofType('LeaseIdle')).toEqual([]);
    expect(plane.idleNotifier.messages).toEqual([]);
    expect(plane.leases.peek(TENANT, lease.leaseId)?.status).toBe('RUNNING');
  });

  it('never takes a silent GPU for an idle one', async () => {
    const plane = fakeControlPlane();
    const lease = await fourGpuLease(plane, 'release');
    plane.clock.advance(20 * MINUTE);
    utilization(plane, lease, 20, (gpu) => (gpu === 2 ? undefined : 0));

    expect((await evaluateScalingGroups(deps(plane), plane.now())).idle.idleEpisodesOpened).toBe(0);
    expect(plane.leases.peek(TENANT, lease.leaseId)?.status).toBe('RUNNING');
  });

  it('notifies once per episode with all four GPUs idle, and again only after the lease was busy', async () => {
    const plane = fakeControlPlane();
    const lease = await fourGpuLease(plane, 'notify');
    plane.clock.advance(20 * MINUTE);
    utilization(plane, lease, 40, (_gpu, minute) => (minute >= 25 && minute < 28 ? 90 : 1));

    await evaluateScalingGroups(deps(plane), plane.now());
    plane.clock.advance(MINUTE);
    await evaluateScalingGroups(deps(plane), plane.now());
    expect(
      plane.events.ofType('LeaseIdle').map((e) => [e.detail.leaseId, e.detail.gpus, e.detail.action]),
    ).toEqual([[lease.leaseId, 4, 'notify']]);
    expect(plane.idleNotifier.messages.map((m) => [m.attributes.kind, m.attributes.leaseId])).toEqual([
      ['idle', lease.leaseId],
    ]);
    expect(plane.leases.peek(TENANT, lease.leaseId)?.status).toBe('RUNNING');

    plane.clock.advance(8 * MINUTE); // minutes 25-27 busy: the episode closes
    await evaluateScalingGroups(deps(plane), plane.now());
    plane.clock.advance(12 * MINUTE); // ten idle minutes again
    await evaluateScalingGroups(deps(plane), plane.now());
    expect(plane.idleNotifier.messages).toHaveLength(2);
  });

  it('releases under `release`, saying why with the figures', async () => {
    const plane = fakeControlPlane();
    const lease = await fourGpuLease(plane, 'release');
    plane.clock.advance(20 * MINUTE);
    utilization(plane, lease, 20, () => 2);

    const summary = await evaluateScalingGroups(deps(plane), plane.now());

    expect(summary.idle).toMatchObject({ idleEpisodesOpened: 1, released: 1 });
    const released = plane.leases.peek(TENANT, lease.leaseId);
    expect(released?.status).toBe('RELEASING');
    expect(released?.releaseReason).toMatch(
      /^Idle: all 4 GPU\(s\) below 5% utilization for 10 minutes since .* \(peak 2%, mean 2%\)$/,
    );
    expect(plane.commands.sent.map(({ command }) => [command.type, command.leaseId])).toContainEqual([
      'release',
      lease.leaseId,
    ]);
  });

  it('applies the stricter of admin and tenant policy, and refuses a tenant policy that loosens the admin one', async () => {
    const plane = fakeControlPlane();
    await plane.idlePolicies.put(TENANT, 'admin', policy({ action: 'release', forMinutes: 10 }));
    await expect(putTenantIdlePolicy(plane, TENANT, policy({ action: 'notify' }))).rejects.toMatchObject({
      status: 409,
      code: 'IDLE_POLICY_LOOSER_THAN_ADMIN',
    });
    expect((await plane.idlePolicies.get(TENANT)).tenant).toBeUndefined();

    await putTenantIdlePolicy(plane, TENANT, policy({ action: 'release', belowPercent: 20, forMinutes: 10 }));
    expect((await idlePoliciesOf(plane, TENANT)).effective).toMatchObject({
      belowPercent: 20,
      forMinutes: 10,
      action: 'release',
    });
  });

  it('records idle cost equal to the billed seconds below the line, to the micro-dollar', async () => {
    const plane = fakeControlPlane();
    const lease = await runningLease(plane, { gpus: 1, instanceType: 'g5.xlarge', mode: 'on-demand' });
    const instance = lease.instances[0];
    expect(instance?.priceMicroUsdPerHour).toBe(1_006_000);
    // Minutes 0-4 below the 5% line, 5-9 busy.
    utilization(plane, lease, 10, (_gpu, minute) => (minute < 5 ? 2 : 50));
    plane.clock.advance(10 * MINUTE);
    await meterOpenInstances(plane, plane.now());
    plane.clock.advance(2 * MINUTE); // the telemetry of minute 9 is in

    const summary = await evaluateScalingGroups(deps(plane), plane.now());
    // 300 idle seconds of $1.006/h: 300 × 1,006,000 / 3600 = 83,833.3 µ$, rounded half up once.
    expect(summary.idle.idleMicroUsdRecorded).toBe(83_833);
    const day = new Date(lease.createdAtMs).toISOString().slice(0, 10);
    const rollups = await plane.idleLedger.dailyIdle(TENANT, day, day);
    expect(rollups.map((r) => [r.kind, r.idleGpuSeconds, r.idleMicroUsd])).toEqual([
      ['tenant', 300, 83_833],
      ['project', 300, 83_833],
      ['lease', 300, 83_833],
    ]);

    // A repeated evaluation adds nothing: the checkpoint moved.
    expect((await evaluateScalingGroups(deps(plane), plane.now())).idle.idleMicroUsdRecorded).toBe(0);
  });
});
