import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Image, ImageVersion } from '../domain/images';
import type { ImageRepository } from '../ports/images';
import { IMAGES_PARTITION, imageKey, imageVersionKey } from './dynamodb-keys';
import { queryAll } from './dynamodb-query-all';

type Item = Record<string, unknown>;

const strip = ({ pk: _pk, sk: _sk, entity: _entity, revision: _revision, ...rest }: Item) => rest;

/**
 * Images and their versions in the leases table, in their own partition. The
 * image item carries a revision, so two promotions racing cannot both win.
 */
export class DynamoDbImageRepository implements ImageRepository {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async putVersion(version: ImageVersion): Promise<boolean> {
    try {
      await this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...this.versionKey(version.name, version.version), entity: 'image-version', ...version },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  async getVersion(name: string, version: string): Promise<ImageVersion | undefined> {
    const result = await this.client.send(
      new GetCommand({
        TableName: this.tableName,
        Key: this.versionKey(name, version),
        ConsistentRead: true,
      }),
    );
    return result.Item ? (strip(result.Item) as unknown as ImageVersion) : undefined;
  }

  async getImage(name: string): Promise<Image | undefined> {
    const result = await this.client.send(
      new GetCommand({ TableName: this.tableName, Key: this.imageKey(name), ConsistentRead: true }),
    );
    return result.Item ? this.toImage(result.Item) : undefined;
  }

  async listVersions(name: string): Promise<ImageVersion[]> {
    const items = await queryAll(this.client, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': IMAGES_PARTITION, ':prefix': imageVersionKey(name, '') },
      ConsistentRead: true,
    });
    return items.map((item) => strip(item) as unknown as ImageVersion);
  }

  async listAll(): Promise<{ images: Image[]; versions: ImageVersion[] }> {
    const items = await queryAll(this.client, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': IMAGES_PARTITION },
      ConsistentRead: true,
    });
    return {
      images: items.filter((item) => item.entity === 'image').map((item) => this.toImage(item)),
      versions: items
        .filter((item) => item.entity === 'image-version')
        .map((item) => strip(item) as unknown as ImageVersion),
    };
  }

  async saveImage(image: Image, expected: Image | undefined): Promise<boolean> {
    const revision = expected ? ((expected as Image & { revision?: number }).revision ?? 0) : 0;
    try {
      await this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...this.imageKey(image.name), entity: 'image', ...image, revision: revision + 1 },
          ConditionExpression: expected ? 'revision = :revision' : 'attribute_not_exists(pk)',
          ExpressionAttributeValues: expected ? { ':revision': revision } : undefined,
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  /** The revision rides along (not part of the domain type) for the next conditional save. */
  private toImage(item: Item): Image {
    return { ...(strip(item) as unknown as Image), revision: item.revision } as Image;
  }

  private imageKey(name: string) {
    return { pk: IMAGES_PARTITION, sk: imageKey(name) };
  }

  private versionKey(name: string, version: string) {
    return { pk: IMAGES_PARTITION, sk: imageVersionKey(name, version) };
  }
}
