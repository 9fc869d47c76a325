import { describe, expect, it } from 'vitest';
import {
  BudgetExceededError,
  PriceBelowEveryPoolError,
  UnknownGpuModelError,
  UnknownImageError,
  UnknownRegionError,
  UnsupportedInstanceTypeError,
} from '../../../shared/errors';
import { putBudget } from '../../../shared/usecases/budgets/put-budget';
import { fakeControlPlane } from '../../support/fakes/control-plane';
import { requestLease, TENANT } from '../../support/fakes/leases';

describe('creating a lease', () => {
  it('keeps a lease whose command went out when its LeaseRequested cannot be published, and says so', async () => {
    const plane = fakeControlPlane();
    plane.events.faults.failNext('publish', new Error('EventBridge down'));

    // Before, the failure failed the create: the API answered 500, forgot the Idempotency-Key, and the
    // retry created a second lease while the first one's provisioning was already queued.
    const lease = await requestLease(plane);

    expect(lease.eventsLost?.message).toBe('EventBridge down');
    expect(plane.leases.peek(TENANT, lease.leaseId)?.status).toBe('PENDING');
    expect(plane.commands.commands()).toEqual([
      { type: 'provision', tenantId: TENANT, leaseId: lease.leaseId },
    ]);
  });

  it('stores it PENDING, queues its provisioning and announces it', async () => {
    const plane = fakeControlPlane();

    const lease = await requestLease(plane, { gpus: 4, instanceType: 'g5.12xlarge', project: 'nlp' });

    expect(plane.leases.peek(TENANT, lease.leaseId)).toMatchObject({
      status: 'PENDING',
      gpus: 4,
      project: 'nlp',
    });
    expect(plane.commands.commands()).toEqual([
      { type: 'provision', tenantId: TENANT, leaseId: lease.leaseId },
    ]);
    expect(plane.events.ofType('LeaseRequested').map((e) => e.detail)).toEqual([
      { leaseId: lease.leaseId, workload: 'training', gpus: 4, instanceType: 'g5.12xlarge', project: 'nlp' },
    ]);
    expect(plane.expiry.armed.size).toBe(0);
  });

  it("with a GPU model, records the model's smallest type that holds the GPUs whole", async () => {
    const plane = fakeControlPlane();
    const lease = await requestLease(plane, { gpus: 1, gpuModel: 'A10G' });
    expect(lease).toMatchObject({ gpuModel: 'A10G', instanceType: 'g5.xlarge' });
  });

  it.each(['a10g', 'A10g'])(
    'takes the GPU model %s in any letter case and records the catalog spelling',
    async (gpuModel) => {
      const plane = fakeControlPlane();
      const lease = await requestLease(plane, { gpus: 1, gpuModel });
      expect(lease).toMatchObject({ gpuModel: 'A10G', instanceType: 'g5.xlarge' });
    },
  );

  it.each([
    ['a region without a fleet', { regions: ['eu-west-1'] }, UnknownRegionError],
    [
      'a type that cannot hold the GPUs whole',
      { gpus: 3, instanceType: 'g5.12xlarge' },
      UnsupportedInstanceTypeError,
    ],
    ['an unknown GPU model', { gpuModel: 'Z9000' }, UnknownGpuModelError],
    ['a price ceiling below every pool', { maxHourlyPrice: 0.01 }, PriceBelowEveryPoolError],
    ['an image version nobody registered', { image: 'gpu-base:9' }, UnknownImageError],
  ])('refuses %s and stores nothing', async (_, ask, error) => {
    const plane = fakeControlPlane();

    await expect(requestLease(plane, ask)).rejects.toBeInstanceOf(error);

    expect((await plane.leases.list(TENANT, 10)).leases).toEqual([]);
    expect(plane.commands.sent).toEqual([]);
  });

  it('refuses a lease a spent block-new-leases budget covers, and allows one outside its project', async () => {
    const plane = fakeControlPlane();
    await putBudget(plane, TENANT, 'vision-cap', {
      limitMicroUsd: 5_000_000,
      project: 'vision',
      thresholds: [100],
      basis: 'actual',
      action: 'block-new-leases',
    });
    plane.spend.add({
      tenantId: TENANT,
      aggregate: { kind: 'month', month: '2026-11', scope: { kind: 'project', project: 'vision' } },
      microUsd: 5_000_000,
      seconds: 3600,
    });

    await expect(requestLease(plane, { project: 'vision' })).rejects.toBeInstanceOf(BudgetExceededError);
    await expect(requestLease(plane, { project: 'audio' })).resolves.toMatchObject({ status: 'PENDING' });
    expect((await plane.leases.list(TENANT, 10)).leases.map((l) => l.project)).toEqual(['audio']);
  });
});
