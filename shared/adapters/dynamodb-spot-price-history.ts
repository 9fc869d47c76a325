import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { mapWithConcurrency } from '../concurrency';
import { type PriceChange, type SpotPool, spotPoolKey } from '../domain/price-changes';
import type { SpotPriceHistory } from '../ports/spot-price-history';
import { spotPriceKey, spotPricePartition } from './dynamodb-keys';
import { queryAll } from './dynamodb-query-all';

/** Pools read at once: a fleet spread over many zones and types stays within a few reads in flight. */
const QUERY_CONCURRENCY = 16;

/**
 * Spot price changes in the leases table, a partition per pool and an item per
 * change, so the meter reads a pool's changes since its oldest open launch in
 * one query. Items are written once and never updated.
 */
export class DynamoDbSpotPriceHistory implements SpotPriceHistory {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async changesSince(pools: readonly SpotPool[], sinceMs: number): Promise<Map<string, PriceChange[]>> {
    const keys = [...new Set(pools.map(spotPoolKey))];
    const histories = await mapWithConcurrency(keys, QUERY_CONCURRENCY, async (key) => {
      const items = await queryAll(this.client, {
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND sk > :since',
        ExpressionAttributeValues: { ':pk': spotPricePartition(key), ':since': spotPriceKey(sinceMs) },
      });
      return [key, items.map(toChange)] as const;
    });
    return new Map(histories);
  }

  async record(pool: SpotPool, change: PriceChange): Promise<void> {
    try {
      await this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
            pk: spotPricePartition(spotPoolKey(pool)),
            sk: spotPriceKey(change.fromMs),
            entity: 'spot-price',
            ...change,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    } catch (error) {
      // Recorded at this instant already (a repeated run): the first record stands.
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }
}

function toChange(item: Record<string, unknown>): PriceChange {
  return {
    fromMs: Number(item.fromMs),
    priceMicroUsdPerHour: Number(item.priceMicroUsdPerHour),
    source: item.source as PriceChange['source'],
  };
}
