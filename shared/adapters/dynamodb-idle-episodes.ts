import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, type DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { IdleEpisode, IdleEpisodes } from '../ports/idle';
import { queryAll } from './dynamodb-query-all';

/** One partition of the scaling-groups table, as the GPU health marks: few leases are idle at once. */
const EPISODES_PARTITION = 'IDLE_EPISODES';
const episodeKey = (tenantId: string, leaseId: string) => ({
  pk: EPISODES_PARTITION,
  sk: `LEASE#${tenantId}#${leaseId}`,
});

export class DynamoDbIdleEpisodes implements IdleEpisodes {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async open(): Promise<IdleEpisode[]> {
    const items = await queryAll(this.client, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': EPISODES_PARTITION },
    });
    return items.map(({ pk: _pk, sk: _sk, ...episode }) => episode as unknown as IdleEpisode);
  }

  async claim(episode: IdleEpisode, staleBeforeMs: number): Promise<boolean> {
    try {
      await this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...episodeKey(episode.tenantId, episode.leaseId), ...episode },
          // Another episode's record is replaced; this one's only when its claim went stale unsent.
          ConditionExpression:
            'attribute_not_exists(pk) OR episodeId <> :episode OR (attribute_not_exists(sentAtMs) AND claimedAtMs < :stale)',
          ExpressionAttributeValues: { ':episode': episode.episodeId, ':stale': staleBeforeMs },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  async markSent(tenantId: string, leaseId: string, episodeId: string, atMs: number): Promise<void> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: episodeKey(tenantId, leaseId),
          UpdateExpression: 'SET sentAtMs = :at',
          ConditionExpression: 'episodeId = :episode',
          ExpressionAttributeValues: { ':at': atMs, ':episode': episodeId },
        }),
      );
    } catch (error) {
      // The episode closed meanwhile (the lease was busy again or ended): nothing to mark.
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }

  async close(tenantId: string, leaseId: string): Promise<void> {
    await this.client.send(
      new DeleteCommand({ TableName: this.tableName, Key: episodeKey(tenantId, leaseId) }),
    );
  }
}
