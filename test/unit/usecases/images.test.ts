import { describe, expect, it } from 'vitest';
import { UnknownRegionError } from '../../../shared/errors';
import type { LaunchRequest } from '../../../shared/ports/compute';
import {
  ImageVersionExistsError,
  ImageVersionNotFoundError,
  NothingToRollBackError,
  promoteImageVersion,
  registerImageVersion,
  rollbackImage,
} from '../../../shared/usecases/images';
import { fakeControlPlane } from '../../support/fakes/control-plane';
import { runningLease } from '../../support/fakes/leases';

const AMIS = { 'us-east-1': 'ami-0123456789abcdef0', 'us-west-2': 'ami-0fedcba9876543210' };

describe('GPU images', () => {
  it('registering a version makes a launch template version per region, once', async () => {
    const plane = fakeControlPlane();

    const v1 = await registerImageVersion(plane, 'gpu-base', '1', AMIS);
    const again = await registerImageVersion(plane, 'gpu-base', '1', AMIS);

    expect(v1.launchTemplateVersionByRegion).toEqual({ 'us-east-1': '2', 'us-west-2': '2' });
    expect(again).toEqual(v1);
    expect(plane.compute.faults.callsOf('createLaunchTemplateVersion')).toHaveLength(2);
  });

  it('refuses the same version with other AMIs, and regions without a fleet', async () => {
    const plane = fakeControlPlane();
    await registerImageVersion(plane, 'gpu-base', '1', AMIS);

    await expect(
      registerImageVersion(plane, 'gpu-base', '1', { 'us-east-1': 'ami-00000000000000000' }),
    ).rejects.toBeInstanceOf(ImageVersionExistsError);
    await expect(
      registerImageVersion(plane, 'gpu-base', '2', { 'eu-west-1': 'ami-00000000' }),
    ).rejects.toBeInstanceOf(UnknownRegionError);
  });

  it('new launches use the promoted version of the default image, and the one before after a rollback', async () => {
    const plane = fakeControlPlane();
    const v1 = await registerImageVersion(plane, 'gpu-base', '1', AMIS);
    const v2 = await registerImageVersion(plane, 'gpu-base', '2', AMIS);
    await promoteImageVersion(plane, 'gpu-base', '1');
    const promoted = await promoteImageVersion(plane, 'gpu-base', '2');
    expect(promoted.image).toMatchObject({ current: '2', history: ['1'] });

    const onV2 = await runningLease(plane);
    expect((await rollbackImage(plane, 'gpu-base')).image.current).toBe('1');
    const onV1 = await runningLease(plane);

    const versions = plane.compute.faults
      .callsOf('launch')
      .map(([r]) => (r as LaunchRequest).launchTemplateVersion);
    expect(versions).toEqual([
      v2.launchTemplateVersionByRegion['us-east-1'],
      v1.launchTemplateVersionByRegion['us-east-1'],
    ]);
    expect([onV2.placement?.image, onV1.placement?.image]).toEqual(['gpu-base:2', 'gpu-base:1']);
    await expect(rollbackImage(plane, 'gpu-base')).rejects.toBeInstanceOf(NothingToRollBackError);
  });

  it('refuses to promote a version never registered', async () => {
    const plane = fakeControlPlane();
    await expect(promoteImageVersion(plane, 'gpu-base', '7')).rejects.toBeInstanceOf(
      ImageVersionNotFoundError,
    );
    expect(await plane.images.getImage('gpu-base')).toBeUndefined();
  });

  it('a lease pinned to a version with an AMI only in one region runs only there', async () => {
    const plane = fakeControlPlane();
    await registerImageVersion(plane, 'cuda', '12', { 'us-west-2': 'ami-0fedcba9876543210' });

    const lease = await runningLease(plane, { image: 'cuda:12' });

    expect(lease.instances.map((i) => i.region)).toEqual(['us-west-2']);
  });
});
