import { describe, expect, it } from 'vitest';
import { scalingGroupSpecSchema } from '../../../shared/domain/scaling';
import { evaluateScalingGroups, type ScalingDeps } from '../../../shared/usecases/evaluate-scaling-groups';
import { putScalingGroup } from '../../../shared/usecases/scaling-groups';
import { fakeControlPlane } from '../../support/fakes/control-plane';

const spec = scalingGroupSpecSchema.parse({ instanceType: 'g5.xlarge', min: 1, max: 2 });

describe('the scaling pass, page by page', () => {
  it('reads the groups in pages of the size given and evaluates every group of every page once', async () => {
    const plane = fakeControlPlane();
    const deps: ScalingDeps = { ...plane, metrics: plane.metricReader, temperatureLimitC: 85 };
    for (const [tenant, name] of [
      ['tenant-a', 'one'],
      ['tenant-a', 'two'],
      ['tenant-b', 'one'],
      ['tenant-c', 'one'],
      ['tenant-c', 'two'],
    ] as const) {
      await putScalingGroup(deps, tenant, name, spec);
    }

    const summary = await evaluateScalingGroups(deps, plane.now(), 2);

    const pages = plane.groups.faults.callsOf('listPage');
    expect(pages.map(([limit]) => limit)).toEqual([2, 2, 2]);
    expect(pages[0]?.[1]).toBeUndefined();
    expect(pages[1]?.[1]).toBeDefined();
    // One metric read per page, never one for all the groups at once.
    expect(plane.metricReader.faults.callsOf('read')).toHaveLength(3);
    expect(summary).toMatchObject({ groups: 5, launched: 5, outcomes: { acted: 5 }, failures: [] });
    const launchedBy = plane.commands.commands().map((c) => c.tenantId);
    expect(launchedBy.sort()).toEqual(['tenant-a', 'tenant-a', 'tenant-b', 'tenant-c', 'tenant-c']);
  });

  it('runs the fleet-wide reads once even when no group exists', async () => {
    const plane = fakeControlPlane();
    const deps: ScalingDeps = { ...plane, metrics: plane.metricReader, temperatureLimitC: 85 };
    const summary = await evaluateScalingGroups(deps, plane.now(), 2);
    expect(plane.groups.faults.callsOf('listPage')).toEqual([[2, undefined]]);
    expect(plane.metricReader.faults.callsOf('read')).toHaveLength(1);
    expect(summary).toMatchObject({ groups: 0, idle: expect.any(Object) });
  });
});
