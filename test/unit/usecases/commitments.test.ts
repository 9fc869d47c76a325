import { describe, expect, it } from 'vitest';
import { UnknownRegionError } from '../../../shared/errors';
import { CommitmentInUseError } from '../../../shared/ports/commitments';
import { defineCommitment, InvalidCommitmentError } from '../../../shared/usecases/commitments';
import { completeRelease, requestRelease } from '../../../shared/usecases/release-lease';
import { type FakeControlPlane, fakeControlPlane } from '../../support/fakes/control-plane';
import { runningLease, TENANT } from '../../support/fakes/leases';

const YEAR = 365 * 86_400_000;

const commit = (plane: FakeControlPlane, count = 2) =>
  defineCommitment(plane, 'c-east', {
    instanceType: 'g5.xlarge',
    region: 'us-east-1',
    zone: 'us-east-1b',
    count,
    startMs: plane.now() - 1,
    endMs: plane.now() + YEAR,
  });

describe('reserved commitments', () => {
  it("are priced at the catalog's reserved rate unless given one, and checked against the fleet", async () => {
    const plane = fakeControlPlane();
    const defined = await commit(plane);
    expect(defined).toMatchObject({
      gpusPerInstance: 1,
      hourlyMicroUsd: plane.catalog.reservedMicroPerHour('g5.xlarge', 'us-east-1'),
      holders: {},
    });
    const base = {
      instanceType: 'g5.xlarge',
      region: 'us-east-1',
      zone: 'us-east-1a',
      count: 1,
      startMs: 0,
      endMs: 1,
    };
    await expect(defineCommitment(plane, 'x', { ...base, region: 'eu-west-1' })).rejects.toBeInstanceOf(
      UnknownRegionError,
    );
    await expect(defineCommitment(plane, 'x', { ...base, zone: 'us-west-2a' })).rejects.toBeInstanceOf(
      InvalidCommitmentError,
    );
    await expect(defineCommitment(plane, 'x', { ...base, instanceType: 'm5.large' })).rejects.toBeInstanceOf(
      InvalidCommitmentError,
    );
  });

  it('carry training leases while they have room, then leases go on-demand', async () => {
    const plane = fakeControlPlane();
    await commit(plane);

    const first = await runningLease(plane);
    const second = await runningLease(plane);
    const third = await runningLease(plane);

    expect([first, second, third].map((l) => l.placement?.mode)).toEqual([
      'reserved',
      'reserved',
      'on-demand',
    ]);
    expect(first.instances[0]).toMatchObject({
      mode: 'reserved',
      commitmentId: 'c-east',
      zone: 'us-east-1b',
    });
    const held = await plane.commitments.get('c-east');
    expect(Object.keys(held?.holders ?? {}).sort()).toEqual([first.leaseId, second.leaseId].sort());
  });

  it('free their slots when the lease is released, and refuse to shrink below what is held', async () => {
    const plane = fakeControlPlane();
    await commit(plane);
    const lease = await runningLease(plane);

    await expect(commit(plane, 0)).rejects.toBeInstanceOf(CommitmentInUseError);
    await expect(plane.commitments.delete('c-east')).rejects.toBeInstanceOf(CommitmentInUseError);

    await requestRelease(plane, TENANT, lease.leaseId);
    await completeRelease(plane, TENANT, lease.leaseId);

    expect((await plane.commitments.get('c-east'))?.holders).toEqual({});
    expect(await plane.commitments.delete('c-east')).toBe(true);
  });

  it('a lease that loses the last slot to another between reading and claiming goes on-demand', async () => {
    const plane = fakeControlPlane();
    await commit(plane, 1);
    plane.commitments.faults.interleave('claim', () =>
      plane.commitments.claim('c-east', 'lease_other', {
        gpus: 1,
        startedAtMs: plane.now(),
        interruptible: false,
      }),
    );

    const lease = await runningLease(plane);

    expect(lease.placement?.mode).toBe('on-demand');
    expect(lease.placement?.reason).toContain('(CommitmentFull)');
    expect(Object.keys((await plane.commitments.get('c-east'))?.holders ?? {})).toEqual(['lease_other']);
  });

  it('a reserved launch EC2 refuses gives the slot back before the lease falls back', async () => {
    const plane = fakeControlPlane();
    await commit(plane);
    plane.compute.insufficientCapacity({ mode: 'reserved', instanceType: 'g5.xlarge' });

    const lease = await runningLease(plane);

    expect(lease.placement?.mode).toBe('on-demand');
    expect((await plane.commitments.get('c-east'))?.holders).toEqual({});
  });
});
