/** Names of images and versions: what an admin may call them (also safe in keys and tags). */
export const IMAGE_NAME_PATTERN = /^[a-z0-9._-]{1,64}$/;
/** An EC2 AMI id: `ami-` and 8 or 17 hex digits. */
export const AMI_ID_PATTERN = /^ami-([0-9a-f]{8}|[0-9a-f]{17})$/;

/** One version of a GPU image: an AMI per region and the launch template version made for each. */
export interface ImageVersion {
  readonly name: string;
  readonly version: string;
  readonly amiByRegion: Readonly<Record<string, string>>;
  /** Launch template version (per region) whose AMI is this version's, IMDSv2 and encrypted volumes. */
  readonly launchTemplateVersionByRegion: Readonly<Record<string, string>>;
  readonly createdAtMs: number;
}

/** An image: its current version and the versions promoted before it, newest last. */
export interface Image {
  readonly name: string;
  readonly current?: string | undefined;
  readonly history: readonly string[];
}

/** `name:version` on a lease pins it to one version. */
export function parseImageRef(ref: string): { name: string; version: string } | undefined {
  const [name, version, ...rest] = ref.split(':');
  if (rest.length > 0 || !name || !version) return undefined;
  if (!IMAGE_NAME_PATTERN.test(name) || !IMAGE_NAME_PATTERN.test(version)) return undefined;
  return { name, version };
}

/** The image after promoting `version`: it becomes current, the one before goes on the history. */
export function promote(image: Image, version: string): Image {
  if (image.current === version) return image;
  return {
    ...image,
    current: version,
    history: image.current ? [...image.history, image.current] : image.history,
  };
}

/** The image after a rollback: the previous current version comes back, or undefined when there is none. */
export function rollback(image: Image): Image | undefined {
  const previous = image.history.at(-1);
  if (previous === undefined) return undefined;
  return { ...image, current: previous, history: image.history.slice(0, -1) };
}

/** What an operator sees of an image: every version registered, oldest first, and which is current. */
export interface ImageSummary {
  readonly name: string;
  readonly current?: string | undefined;
  /** The version a rollback would bring back. */
  readonly previous?: string | undefined;
  readonly versions: readonly ImageVersion[];
}

/**
 * Images by name, from the promoted images and the versions registered (an
 * image whose versions were never promoted has no image record yet).
 */
export function summarizeImages(images: readonly Image[], versions: readonly ImageVersion[]): ImageSummary[] {
  const byName = new Map(images.map((image) => [image.name, image]));
  const names = [...new Set([...byName.keys(), ...versions.map((v) => v.name)])].sort();
  return names.map((name) => {
    const image = byName.get(name);
    return {
      name,
      current: image?.current,
      previous: image?.history.at(-1),
      versions: versions
        .filter((v) => v.name === name)
        .sort((a, b) => a.createdAtMs - b.createdAtMs || a.version.localeCompare(b.version)),
    };
  });
}
