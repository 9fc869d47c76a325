import { describe, expect, it } from 'vitest';
import { scalingGroupSpecSchema } from '../../../shared/domain/scaling';
import { UnsupportedInstanceTypeError } from '../../../shared/errors';
import {
  ForeignMetricNamespaceError,
  ScalingGroupCapError,
  ScalingGroupNotFoundError,
} from '../../../shared/scaling-errors';
import { putBudget } from '../../../shared/usecases/budgets/put-budget';
import { evaluateScalingGroups, type ScalingDeps } from '../../../shared/usecases/evaluate-scaling-groups';
import {
  deleteScalingGroup,
  getScalingGroup,
  putScalingGroup,
} from '../../../shared/usecases/scaling-groups';
import { type FakeControlPlane, fakeControlPlane } from '../../support/fakes/control-plane';
import { TENANT } from '../../support/fakes/leases';

const scaling = (plane: FakeControlPlane): ScalingDeps => ({
  ...plane,
  metrics: plane.metricReader,
  temperatureLimitC: 85,
});
const spec = (min: number, max = 4) => scalingGroupSpecSchema.parse({ instanceType: 'g5.xlarge', min, max });

describe('scaling groups', () => {
  it('an evaluation launches members up to the desired size through lease creation, then holds', async () => {
    const plane = fakeControlPlane();
    const deps = scaling(plane);
    const { created, view } = await putScalingGroup(deps, TENANT, 'web', spec(2));
    expect(created).toBe(true);
    expect(view.group).toMatchObject({ desired: 2, members: [] });

    const first = await evaluateScalingGroups(deps, plane.now());
    const second = await evaluateScalingGroups(deps, plane.clock.advance(60_000));

    expect(first).toMatchObject({
      groups: 1,
      launched: 2,
      outcomes: { acted: 1 },
      decisions: { converge: 1 },
    });
    expect(second).toMatchObject({ launched: 0, released: 0, outcomes: { unchanged: 1 } });
    const members = (await getScalingGroup(deps, TENANT, 'web')).members;
    expect(members.map((m) => m.status)).toEqual(['PENDING', 'PENDING']);
    expect(plane.commands.commands().map((c) => c.type)).toEqual(['provision', 'provision']);
    expect(plane.events.ofType('ScalingDecision').map((e) => e.detail.launched)).toEqual([
      members.map((m) => m.leaseId),
    ]);
  });

  it('a spent block-new-leases budget keeps the group short without failing the evaluation', async () => {
    const plane = fakeControlPlane();
    const deps = scaling(plane);
    await putBudget(plane, TENANT, 'cap', {
      limitMicroUsd: 1,
      thresholds: [100],
      basis: 'actual',
      action: 'block-new-leases',
    });
    plane.spend.add({
      tenantId: TENANT,
      aggregate: { kind: 'month', month: '2026-11', scope: { kind: 'tenant' } },
      microUsd: 1,
      seconds: 1,
    });
    await putScalingGroup(deps, TENANT, 'web', spec(2));

    const summary = await evaluateScalingGroups(deps, plane.now());

    expect(summary).toMatchObject({ launched: 0, failures: [] });
    expect((await plane.leases.list(TENANT, 10)).leases).toEqual([]);
  });

  it('deleting a group releases every live member and removes it; a new PUT may follow', async () => {
    const plane = fakeControlPlane();
    const deps = scaling(plane);
    await putScalingGroup(deps, TENANT, 'web', spec(2));
    await evaluateScalingGroups(deps, plane.now());

    const released = await deleteScalingGroup(deps, TENANT, 'web');

    expect(released).toHaveLength(2);
    expect(released.map((id) => plane.leases.peek(TENANT, id)?.status)).toEqual(['RELEASING', 'RELEASING']);
    await expect(getScalingGroup(deps, TENANT, 'web')).rejects.toBeInstanceOf(ScalingGroupNotFoundError);
    await expect(deleteScalingGroup(deps, TENANT, 'web')).rejects.toBeInstanceOf(ScalingGroupNotFoundError);
  });

  it('refuses an instance type that is not a single-GPU type of the home region', async () => {
    const plane = fakeControlPlane();
    await expect(
      putScalingGroup(scaling(plane), TENANT, 'big', { ...spec(1), instanceType: 'g5.12xlarge' }),
    ).rejects.toBeInstanceOf(UnsupportedInstanceTypeError);
    expect(await plane.groups.list(TENANT)).toEqual([]);
  });

  it("refuses a custom condition outside the tenant's gpurent/<tenant>/ namespaces, naming the field, and stores nothing", async () => {
    const plane = fakeControlPlane();
    const reading = (namespace: string) =>
      scalingGroupSpecSchema.parse({
        instanceType: 'g5.xlarge',
        min: 0,
        max: 2,
        scaleOut: {
          conditions: [
            { metric: 'custom', namespace, name: 'Depth', statistic: 'Sum', comparison: '>', threshold: 1 },
          ],
        },
      });
    for (const namespace of [
      'CWAgent',
      'AWS/SQS',
      `gpurent/${TENANT}x/q`,
      'gpurent/other/q',
      `gpurent/${TENANT}/`,
    ]) {
      const refusal = putScalingGroup(scaling(plane), TENANT, 'peek', reading(namespace));
      await expect(refusal).rejects.toBeInstanceOf(ForeignMetricNamespaceError);
      await expect(refusal).rejects.toMatchObject({
        status: 400,
        code: 'METRIC_NAMESPACE_NOT_OWNED',
        field: 'scaleOut.conditions.0.namespace',
      });
    }
    expect(await plane.groups.list(TENANT)).toEqual([]);
    const own = await putScalingGroup(scaling(plane), TENANT, 'own', reading(`gpurent/${TENANT}/queue`));
    expect(own.created).toBe(true);
  });

  it("refuses a group past the tenant's cap with a 409 naming it; replacing a group's spec is never counted", async () => {
    const plane = fakeControlPlane();
    const limits = { maxScalingGroups: 2 };
    await putScalingGroup(scaling(plane), TENANT, 'a', spec(1), limits);
    await putScalingGroup(scaling(plane), TENANT, 'b', spec(1), limits);
    const third = putScalingGroup(scaling(plane), TENANT, 'c', spec(1), limits);
    await expect(third).rejects.toBeInstanceOf(ScalingGroupCapError);
    await expect(third).rejects.toMatchObject({ status: 409, code: 'SCALING_GROUP_CAP_REACHED' });
    expect((await putScalingGroup(scaling(plane), TENANT, 'b', spec(2), limits)).created).toBe(false);
    expect((await plane.groups.list(TENANT)).map((g) => g.name)).toEqual(['a', 'b']);
  });
});
