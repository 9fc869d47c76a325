import { describe, expect, it } from 'vitest';
import { ModeNotAvailableError } from '../../../shared/errors';
import { defineCommitment, InvalidCommitmentError } from '../../../shared/usecases/commitments';
import { assertModeCanBeHad } from '../../../shared/usecases/lease-shape';
import { type FakeControlPlane, fakeControlPlane } from '../../support/fakes/control-plane';
import { DEFAULT_TYPE, requestLease, runningLease, TENANT } from '../../support/fakes/leases';

const YEAR = 365 * 86_400_000;
const commitment = (plane: FakeControlPlane, zone: string) =>
  defineCommitment(plane, 'c-east', {
    instanceType: DEFAULT_TYPE,
    region: 'us-east-1',
    zone,
    count: 1,
    startMs: plane.now() - 1,
    endMs: plane.now() + YEAR,
  });

describe('a mode the lease can never get', () => {
  it.each([
    ['spot for inference', { workload: 'inference', mode: 'spot' }],
    ['reserved with no commitment', { workload: 'training', mode: 'reserved' }],
  ] as const)('is refused when asked for: %s', async (_, ask) => {
    const plane = fakeControlPlane();
    const refused = assertModeCanBeHad(plane, { gpus: 1, ...ask }, DEFAULT_TYPE);
    await expect(refused).rejects.toBeInstanceOf(ModeNotAvailableError);
    await expect(refused).rejects.toMatchObject({ status: 400, code: 'MODE_NOT_AVAILABLE', field: 'mode' });
  });

  it('is not refused when it can be had: spot for batch, reserved with a commitment of its type', async () => {
    const plane = fakeControlPlane();
    await expect(
      assertModeCanBeHad(plane, { workload: 'batch', gpus: 1, mode: 'spot' }, DEFAULT_TYPE),
    ).resolves.toBeUndefined();
    await commitment(plane, 'us-east-1a');
    await expect(
      assertModeCanBeHad(plane, { workload: 'inference', gpus: 1, mode: 'reserved' }, DEFAULT_TYPE),
    ).resolves.toBeUndefined();
    await expect(
      assertModeCanBeHad(
        plane,
        { workload: 'inference', gpus: 1, mode: 'reserved', instanceType: 'g6.xlarge' },
        DEFAULT_TYPE,
      ),
    ).rejects.toBeInstanceOf(ModeNotAvailableError);
  });
});

describe('a reserved commitment', () => {
  it('is refused in a zone the fleet does not launch into, and nothing is stored', async () => {
    const plane = fakeControlPlane();
    await expect(commitment(plane, 'us-east-1z')).rejects.toBeInstanceOf(InvalidCommitmentError);
    await expect(commitment(plane, 'us-east-1z')).rejects.toMatchObject({
      code: 'INVALID_RESERVATION',
      field: 'zone',
      message: expect.stringContaining('us-east-1a, us-east-1b'),
    });
    expect(await plane.commitments.list()).toEqual([]);
  });
});

describe('a GPU-model lease', () => {
  it('records, once placed, the instance type it runs on', async () => {
    const plane = fakeControlPlane();
    const requested = await requestLease(plane, { gpus: 8, gpuModel: 'H100' });
    const placed = await runningLease(plane, { gpus: 8, gpuModel: 'H100' });

    expect(requested.instanceType).not.toBe(placed.placement?.instanceType);
    expect(placed.instanceType).toBe(placed.placement?.instanceType);
    expect(new Set(placed.instances.map((i) => i.instanceType))).toEqual(new Set([placed.instanceType]));
    expect(
      (await plane.leases.list(TENANT, 10)).leases.find((l) => l.leaseId === placed.leaseId),
    ).toMatchObject({ instanceType: placed.instanceType });
  });
});
