import { ClientError } from '../client-error';
import { type Image, type ImageVersion, parseImageRef, promote, rollback } from '../domain/images';
import type { Lease } from '../domain/lease';
import { UnknownRegionError } from '../errors';
import type { ControlPlane } from './dependencies';

type Deps = Pick<ControlPlane, 'images' | 'compute' | 'placement' | 'now'>;

export class ImageVersionExistsError extends ClientError {
  constructor(readonly ref: string) {
    super(
      409,
      'IMAGE_VERSION_EXISTS',
      `Image version ${ref} exists with other AMIs; versions are immutable, register a new version`,
    );
    this.name = 'ImageVersionExistsError';
  }
}

export class ImageVersionNotFoundError extends ClientError {
  constructor(readonly ref: string) {
    super(
      404,
      'IMAGE_VERSION_NOT_FOUND',
      `No image version ${ref}; register it with PUT /v1/admin/images/{name}/versions/{version}`,
    );
    this.name = 'ImageVersionNotFoundError';
  }
}

export class NothingToRollBackError extends ClientError {
  constructor(readonly image: string) {
    super(409, 'NOTHING_TO_ROLL_BACK', `Image ${image} has no earlier promoted version to roll back to`);
    this.name = 'NothingToRollBackError';
  }
}

/** What promote and rollback answer: the image now, and what the change does. */
export interface ImageChange {
  readonly image: Image;
  readonly note: string;
}

const ONLY_NEW_LAUNCHES = 'running instances keep the AMI they started from';

/**
 * Registers a version: an AMI per GPU region, each given its own launch
 * template version there (IMDSv2, encrypted volumes). Registering the same
 * version again with the same AMIs is harmless; with others it is refused.
 */
export async function registerImageVersion(
  deps: Deps,
  name: string,
  version: string,
  amiByRegion: Readonly<Record<string, string>>,
): Promise<ImageVersion> {
  for (const region of Object.keys(amiByRegion)) {
    if (!deps.placement.regions.includes(region))
      throw new UnknownRegionError('regions', region, deps.placement.regions);
  }
  const existing = await deps.images.getVersion(name, version);
  if (existing)
    return sameAmis(existing, amiByRegion)
      ? existing
      : Promise.reject(new ImageVersionExistsError(`${name}:${version}`));
  const launchTemplateVersionByRegion: Record<string, string> = {};
  for (const [region, ami] of Object.entries(amiByRegion)) {
    launchTemplateVersionByRegion[region] = await deps.compute.createLaunchTemplateVersion(
      region,
      ami,
      `gpurent image ${name}:${version}`,
    );
  }
  const created: ImageVersion = {
    name,
    version,
    amiByRegion,
    launchTemplateVersionByRegion,
    createdAtMs: deps.now(),
  };
  if (await deps.images.putVersion(created)) return created;
  // A concurrent registration won; its launch template versions are the ones used.
  return (await deps.images.getVersion(name, version)) ?? created;
}

function sameAmis(version: ImageVersion, amiByRegion: Readonly<Record<string, string>>): boolean {
  const a = Object.entries(version.amiByRegion).sort();
  const b = Object.entries(amiByRegion).sort();
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Makes `version` the one new launches use. */
export async function promoteImageVersion(deps: Deps, name: string, version: string): Promise<ImageChange> {
  if (!(await deps.images.getVersion(name, version)))
    throw new ImageVersionNotFoundError(`${name}:${version}`);
  const image = await changeImage(deps, name, (current) =>
    promote(current ?? { name, history: [] }, version),
  );
  return { image, note: `new launches use ${name}:${version}; ${ONLY_NEW_LAUNCHES}` };
}

/** Puts the version promoted before the current one back; new launches only. */
export async function rollbackImage(deps: Deps, name: string): Promise<ImageChange> {
  const image = await changeImage(deps, name, (current) => {
    const back = current && rollback(current);
    if (!back) throw new NothingToRollBackError(name);
    return back;
  });
  return { image, note: `new launches use ${name}:${image.current}; ${ONLY_NEW_LAUNCHES}` };
}

const CHANGE_ATTEMPTS = 3;

async function changeImage(
  deps: Deps,
  name: string,
  change: (image: Image | undefined) => Image,
): Promise<Image> {
  for (let attempt = 0; attempt < CHANGE_ATTEMPTS; attempt += 1) {
    const current = await deps.images.getImage(name);
    const next = change(current);
    if (await deps.images.saveImage(next, current)) return next;
  }
  throw new Error(`Image ${name} kept changing under ${CHANGE_ATTEMPTS} attempts; retry`);
}

/**
 * The image version a launch for the lease uses: the one the lease pins, else
 * the current version of the default image, else none (the launch template's
 * default version, the fleet's base AMI).
 */
export async function imageForLaunch(
  deps: Pick<ControlPlane, 'images' | 'placement'>,
  lease: Pick<Lease, 'image'>,
): Promise<ImageVersion | undefined> {
  const pinned = lease.image ? parseImageRef(lease.image) : undefined;
  if (pinned) return deps.images.getVersion(pinned.name, pinned.version);
  const image = await deps.images.getImage(deps.placement.defaultImage);
  return image?.current ? deps.images.getVersion(image.name, image.current) : undefined;
}
