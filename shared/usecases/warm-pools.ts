import { ClientError } from '../client-error';
import { IMAGE_NAME_PATTERN, type ImageVersion, parseImageRef } from '../domain/images';
import {
  MAX_PREPULL_TAG_LENGTH,
  prePullTagValue,
  type WarmPool,
  type WarmPoolSpec,
} from '../domain/warm-pools/pool';
import type { WarmPoolRepository } from '../ports/warm-pools';
import type { ControlPlane } from './dependencies';

/** What warm-pool use cases take: the pools, the images they are built from, the fleet and the catalog. */
export type WarmPoolDeps = Pick<ControlPlane, 'images' | 'compute' | 'catalog' | 'placement' | 'now'> & {
  readonly warmPools: WarmPoolRepository;
};

/** A pool spec that names something gpurent does not have: nothing is stored. */
export class InvalidWarmPoolError extends ClientError {
  constructor(code: string, field: string, message: string) {
    super(400, code, message, field);
    this.name = 'InvalidWarmPoolError';
  }
}

export class WarmPoolNotFoundError extends ClientError {
  constructor(readonly pool: string) {
    super(
      404,
      'WARM_POOL_NOT_FOUND',
      `No warm pool ${pool}; create it with PUT /v1/admin/warm-pools/${pool}`,
    );
    this.name = 'WarmPoolNotFoundError';
  }
}

/**
 * The image version a pool's machines are built from now: the pinned
 * `name:version`, or the current version of the image it follows.
 */
export async function poolImageVersion(
  deps: Pick<ControlPlane, 'images'>,
  image: string,
): Promise<ImageVersion | undefined> {
  const pinned = parseImageRef(image);
  if (pinned) return deps.images.getVersion(pinned.name, pinned.version);
  const followed = await deps.images.getImage(image);
  return followed?.current ? deps.images.getVersion(followed.name, followed.current) : undefined;
}

/** Checks the spec against the catalog, the fleet and the images, then stores it; the filler fills it. */
export async function putWarmPool(
  deps: WarmPoolDeps,
  spec: WarmPoolSpec,
): Promise<{ pool: WarmPool; created: boolean }> {
  if (!deps.placement.regions.includes(spec.region))
    throw new InvalidWarmPoolError(
      'UNKNOWN_REGION',
      'region',
      `region ${spec.region} is not a GPU region (${deps.placement.regions.join(', ')})`,
    );
  if (!deps.catalog.offering(spec.instanceType) || !deps.catalog.isPricedIn(spec.instanceType, spec.region))
    throw new InvalidWarmPoolError(
      'UNKNOWN_INSTANCE_TYPE',
      'instanceType',
      `instance type ${spec.instanceType} is not a GPU type priced in ${spec.region}`,
    );
  if (spec.zone !== undefined) {
    const zones = (await deps.compute.fleet()).find((r) => r.region === spec.region)?.zones ?? [];
    if (!zones.includes(spec.zone))
      throw new InvalidWarmPoolError(
        'UNKNOWN_ZONE',
        'zone',
        `zone ${spec.zone} has no fleet subnet in ${spec.region} (${zones.join(', ') || 'none'}); omit it for any zone`,
      );
  }
  if (!parseImageRef(spec.image) && !IMAGE_NAME_PATTERN.test(spec.image))
    throw new InvalidWarmPoolError('INVALID_IMAGE', 'image', `image must be name or name:version`);
  const version = await poolImageVersion(deps, spec.image);
  if (!version?.launchTemplateVersionByRegion[spec.region])
    throw new InvalidWarmPoolError(
      'UNKNOWN_IMAGE_VERSION',
      'image',
      `image ${spec.image} has no ${parseImageRef(spec.image) ? 'such version' : 'current version'} with an AMI in ${spec.region}`,
    );
  if (prePullTagValue(spec.prePull).length > MAX_PREPULL_TAG_LENGTH)
    throw new InvalidWarmPoolError(
      'PREPULL_TOO_LONG',
      'prePull',
      `prePull must fit one EC2 tag: at most ${MAX_PREPULL_TAG_LENGTH} characters space-separated`,
    );
  const existing = await deps.warmPools.getPool(spec.name);
  const nowMs = deps.now();
  const pool: WarmPool = { ...spec, createdAtMs: existing?.createdAtMs ?? nowMs, updatedAtMs: nowMs };
  await deps.warmPools.putPool(pool);
  return { pool, created: existing === undefined };
}

/** Deletes the pool; the filler ends its machines on its next run. */
export async function deleteWarmPool(deps: Pick<WarmPoolDeps, 'warmPools'>, name: string): Promise<void> {
  if (!(await deps.warmPools.deletePool(name))) throw new WarmPoolNotFoundError(name);
}
