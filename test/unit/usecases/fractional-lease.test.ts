import { describe, expect, it } from 'vitest';
import {
  NoSuchGpuFractionError,
  UnknownGpuModelError,
  UnsupportedInstanceTypeError,
} from '../../../shared/errors';
import type { LaunchRequest } from '../../../shared/ports/compute';
import { fakeControlPlane } from '../../support/fakes/control-plane';
import { requestLease, runningLease, TENANT } from '../../support/fakes/leases';

const launches = (plane: ReturnType<typeof fakeControlPlane>) =>
  plane.compute.faults.callsOf('launch').map(([request]) => request as LaunchRequest);

describe('fractional GPU leases', () => {
  it.each([
    [0.125, 'g6f.large'],
    [0.25, 'g6f.2xlarge'],
    [0.5, 'g6f.4xlarge'],
  ])('%s of a GPU runs on one instance of that very fraction (%s)', async (gpus, instanceType) => {
    const plane = fakeControlPlane();
    const lease = await runningLease(plane, { gpus });
    expect(lease).toMatchObject({ gpus, status: 'RUNNING' });
    expect(launches(plane).map((r) => [r.instanceType, r.count])).toEqual([[instanceType, 1]]);
    expect(plane.events.ofType('LeaseRequested').map((e) => e.detail.gpus)).toEqual([gpus]);
  });

  it('a whole GPU of the only model with fractional types is refused, not placed on eight eighths', async () => {
    const plane = fakeControlPlane();
    await expect(requestLease(plane, { gpus: 1, gpuModel: 'L40' })).rejects.toBeInstanceOf(
      UnknownGpuModelError,
    );
    expect(plane.commands.sent).toEqual([]);
  });

  it.each([
    ['a fraction of a model sold whole only', { gpus: 0.5, gpuModel: 'A10G' }, NoSuchGpuFractionError],
    [
      'a fraction on a whole-GPU type',
      { gpus: 0.25, instanceType: 'g5.xlarge' },
      UnsupportedInstanceTypeError,
    ],
    [
      'a fraction on a type of another fraction',
      { gpus: 0.25, instanceType: 'g6f.4xlarge' },
      UnsupportedInstanceTypeError,
    ],
    [
      'a whole GPU on a fractional type',
      { gpus: 1, instanceType: 'g6f.large' },
      UnsupportedInstanceTypeError,
    ],
  ])('refuses %s and stores nothing', async (_, ask, error) => {
    const plane = fakeControlPlane();
    const refusal = requestLease(plane, ask);
    await expect(refusal).rejects.toBeInstanceOf(error);
    await expect(refusal).rejects.toMatchObject({ status: 400 });
    expect((await plane.leases.list(TENANT, 10)).leases).toEqual([]);
    expect(plane.commands.sent).toEqual([]);
  });
});
