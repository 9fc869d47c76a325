import { describe, expect, it } from 'vitest';
import { gpuDimensions, gpuMetricNamespace, NVIDIA_SMI_METRICS } from '../../../shared/domain/gpu-telemetry';
import { scalingGroupSpecSchema } from '../../../shared/domain/scaling';
import { setTenantQuota } from '../../../shared/usecases/admission/quotas';
import { evaluateScalingGroups, type ScalingDeps } from '../../../shared/usecases/evaluate-scaling-groups';
import { provisionLease } from '../../../shared/usecases/provision-lease';
import { getScalingGroup, putScalingGroup } from '../../../shared/usecases/scaling-groups';
import { type FakeControlPlane, fakeControlPlane } from '../../support/fakes/control-plane';
import { TENANT } from '../../support/fakes/leases';

const MINUTE = 60_000;
const quota = (maxGpus: number) => ({
  maxGpus,
  maxHourlyMicroUsd: 100_000_000,
  maxGpusByMode: {},
  weight: 1,
});

const scaling = (plane: FakeControlPlane): ScalingDeps => ({
  ...plane,
  metrics: plane.metricReader,
  temperatureLimitC: 85,
});

/** The instance's GPU at `percent` every minute of the last hour and the next. */
function utilization(
  plane: FakeControlPlane,
  { leaseId, instanceId }: { leaseId: string; instanceId: string },
  percent: number,
) {
  plane.metricReader.set(
    {
      namespace: gpuMetricNamespace({ tenantId: TENANT, leaseId }),
      metricName: NVIDIA_SMI_METRICS.utilization,
      dimensions: gpuDimensions(instanceId, 0),
      statistic: 'Average',
      periodSeconds: 60,
    },
    Array.from({ length: 120 }, (_, m) => ({ timestampMs: plane.now() + (m - 60) * MINUTE, value: percent })),
  );
}

const memberIds = async (deps: ScalingDeps) =>
  (await getScalingGroup(deps, TENANT, 'web')).members.map((m) => m.leaseId);

describe('a scaling group through admission', () => {
  it("queues a scale-out at the tenant's quota, says so, adds nothing more while it waits, and runs it once admitted", async () => {
    const plane = fakeControlPlane();
    const deps = scaling(plane);
    await setTenantQuota(plane, TENANT, quota(1));
    await putScalingGroup(
      deps,
      TENANT,
      'web',
      scalingGroupSpecSchema.parse({ instanceType: 'g5.xlarge', min: 1, max: 3 }),
    );
    await evaluateScalingGroups(deps, plane.now());
    const [first] = await memberIds(deps);
    expect(await provisionLease(plane, TENANT, first ?? '')).toBe('running');
    const instanceId = plane.leases.peek(TENANT, first ?? '')?.instances[0]?.instanceId ?? '';

    // Past the warm-up, its GPU is busy: the policy scales out; the new member's lease waits for quota.
    plane.clock.advance(10 * MINUTE);
    utilization(plane, { leaseId: first ?? '', instanceId }, 95);
    expect(await evaluateScalingGroups(deps, plane.now())).toMatchObject({
      launched: 1,
      decisions: { 'scale-out': 1 },
    });
    const second = (await memberIds(deps))[1] ?? '';
    const joinedAtMs = plane.now();
    expect(await provisionLease(plane, TENANT, second)).toBe('queued');

    // The next evaluation sees it QUEUED: pending capacity, not missing; the decision names it.
    plane.clock.advance(MINUTE);
    expect(await evaluateScalingGroups(deps, plane.now())).toMatchObject({ launched: 0, released: 0 });
    const view = await getScalingGroup(deps, TENANT, 'web');
    const waiting = [
      {
        leaseId: second,
        reason: 'quota',
        position: 1,
        estimatedStartAtMs: expect.any(Number),
        estimateBasis: 'default',
        // A member waits the default hour.
        waitEndsAtMs: joinedAtMs + 60 * MINUTE,
      },
    ];
    expect(view.group.desired).toBe(2);
    expect(view.members.map((m) => m.status)).toEqual(['RUNNING', 'QUEUED']);
    expect(view.members[1]?.queue).toMatchObject({ reason: 'quota', position: 1 });
    expect(view.group.lastEvaluation?.waiting).toEqual(waiting);
    expect(view.decisions[0]).toMatchObject({ action: 'none', launched: [], released: [], waiting });
    expect(view.decisions[0]?.reason).toContain(
      `1 GPU waiting in the admission queue: ${second} (quota, position 1)`,
    );
    expect(plane.events.ofType('ScalingDecision').at(-1)?.detail.waiting).toEqual(waiting);

    // Still busy, past the scale-out cooldown: no scale-out while a GPU asked for waits, no new member, no new record.
    for (const minutes of [5, 5]) {
      plane.clock.advance(minutes * MINUTE);
      expect(await evaluateScalingGroups(deps, plane.now())).toMatchObject({
        launched: 0,
        decisions: { 'scale-out': 0, converge: 0 },
      });
    }
    const held = await getScalingGroup(deps, TENANT, 'web');
    expect(held.members).toHaveLength(2);
    expect(held.group.desired).toBe(2);
    expect(held.group.lastEvaluation?.reason).toContain(
      'but 1 GPU asked for earlier still waits in the admission queue',
    );
    expect(held.decisions).toHaveLength(view.decisions.length);
    expect((await plane.leases.list(TENANT, 10)).leases).toHaveLength(2);

    // The quota frees: the pass the change runs admits it, its start command launches it.
    utilization(plane, { leaseId: first ?? '', instanceId }, 50);
    await setTenantQuota(plane, TENANT, quota(2));
    expect(plane.leases.peek(TENANT, second)?.status).toBe('PENDING');
    expect(
      plane.commands
        .commands()
        .filter((c) => c.type === 'start')
        .map((c) => c.leaseId),
    ).toEqual([second]);
    expect(await provisionLease(plane, TENANT, second)).toBe('running');

    plane.clock.advance(MINUTE);
    await evaluateScalingGroups(deps, plane.now());
    const admitted = await getScalingGroup(deps, TENANT, 'web');
    expect(admitted.members.map((m) => m.status)).toEqual(['RUNNING', 'RUNNING']);
    expect(admitted.group.lastEvaluation?.waiting).toBeUndefined();
    expect(admitted.decisions).toHaveLength(held.decisions.length + 1);
    expect(admitted.decisions[0]?.waiting).toBeUndefined();
  });

  it('releases a member still waiting for admission first when the group shrinks', async () => {
    const plane = fakeControlPlane();
    const deps = scaling(plane);
    await setTenantQuota(plane, TENANT, quota(1));
    const spec = (desired: number) =>
      scalingGroupSpecSchema.parse({ instanceType: 'g5.xlarge', min: 1, max: 3, desired });
    await putScalingGroup(deps, TENANT, 'web', spec(2));
    await evaluateScalingGroups(deps, plane.now());
    const [first, second] = await memberIds(deps);
    expect(await provisionLease(plane, TENANT, first ?? '')).toBe('running');
    expect(await provisionLease(plane, TENANT, second ?? '')).toBe('queued');

    plane.clock.advance(10 * MINUTE);
    await putScalingGroup(deps, TENANT, 'web', spec(1));
    expect(await evaluateScalingGroups(deps, plane.now())).toMatchObject({ released: 1 });

    expect(plane.leases.peek(TENANT, second ?? '')?.status).toBe('RELEASING');
    expect(plane.leases.peek(TENANT, first ?? '')?.status).toBe('RUNNING');
  });
});
