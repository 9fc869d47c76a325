import type { Image, ImageVersion } from '../domain/images';

/** GPU images and their versions. */
export interface ImageRepository {
  /** Stores a new version; false when the version exists already (versions are immutable). */
  putVersion(version: ImageVersion): Promise<boolean>;
  getVersion(name: string, version: string): Promise<ImageVersion | undefined>;
  getImage(name: string): Promise<Image | undefined>;
  /** Every version registered under the name, promoted or not. */
  listVersions(name: string): Promise<ImageVersion[]>;
  /** Every image and every version: one partition, a few items per image. */
  listAll(): Promise<{ images: Image[]; versions: ImageVersion[] }>;
  /** Replaces the image's current version and history, only if it still is as `expected` was read. */
  saveImage(image: Image, expected: Image | undefined): Promise<boolean>;
}
