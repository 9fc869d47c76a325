import type { Image, ImageVersion } from '../../../shared/domain/images';
import type { ImageRepository } from '../../../shared/ports/images';
import { Faults, stored } from './faults';

type Revised = Image & { readonly revision?: number };

/**
 * Images with DynamoDbImageRepository's rules: versions are written once, and
 * an image is saved only over the revision it was read at (the revision rides
 * on the image read, as the adapter's does).
 */
export class FakeImageRepository implements ImageRepository {
  readonly faults = new Faults<keyof ImageRepository>();
  private readonly versions = new Map<string, ImageVersion>();
  private readonly images = new Map<string, Revised>();

  async putVersion(version: ImageVersion): Promise<boolean> {
    this.faults.enter('putVersion', [version]);
    const key = `${version.name}:${version.version}`;
    if (this.versions.has(key)) return false;
    this.versions.set(key, stored(version));
    return true;
  }

  async getVersion(name: string, version: string): Promise<ImageVersion | undefined> {
    this.faults.enter('getVersion', [name, version]);
    const found = this.versions.get(`${name}:${version}`);
    return found && stored(found);
  }

  async getImage(name: string): Promise<Image | undefined> {
    this.faults.enter('getImage', [name]);
    const image = this.images.get(name);
    return image && stored(image);
  }

  async listVersions(name: string): Promise<ImageVersion[]> {
    this.faults.enter('listVersions', [name]);
    return [...this.versions.values()].filter((v) => v.name === name).map(stored);
  }

  async listAll(): Promise<{ images: Image[]; versions: ImageVersion[] }> {
    this.faults.enter('listAll', []);
    return {
      images: [...this.images.values()].map(({ revision: _revision, ...image }) => stored(image)),
      versions: [...this.versions.values()].map(stored),
    };
  }

  async saveImage(image: Image, expected: Image | undefined): Promise<boolean> {
    this.faults.enter('saveImage', [image, expected]);
    const current = this.images.get(image.name);
    const read = (expected as Revised | undefined)?.revision ?? 0;
    if (expected ? current?.revision !== read : current !== undefined) return false;
    this.images.set(image.name, stored({ ...image, revision: read + 1 }));
    return true;
  }
}
