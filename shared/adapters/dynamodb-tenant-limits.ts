import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DEFAULT_TENANT_LIMITS, type TenantLimits } from '../domain/tenant-limits';
import type { RequestCounter, TenantLimitsRepository } from '../ports/tenant-limits';
import { tenantKey } from './dynamodb-keys';

const LIMITS_KEY = 'LIMITS';

/**
 * One item per tenant in the leases table (`TENANT#t`, `LIMITS`), written by
 * admins only (the tenant's own settings item is the tenant's to write).
 */
export class DynamoDbTenantLimits implements TenantLimitsRepository {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async get(tenantId: string): Promise<TenantLimits | undefined> {
    const { Item } = await this.client.send(
      new GetCommand({ TableName: this.tableName, Key: { pk: tenantKey(tenantId), sk: LIMITS_KEY } }),
    );
    if (!Item) return undefined;
    return {
      requestsPerSecond: Item.requestsPerSecond as number,
      maxScalingGroups: Item.maxScalingGroups as number,
      // Limits set before the cap on waiting leases existed take its default.
      maxWaitingLeases:
        (Item.maxWaitingLeases as number | undefined) ?? DEFAULT_TENANT_LIMITS.maxWaitingLeases,
    };
  }

  async put(tenantId: string, limits: TenantLimits): Promise<void> {
    await this.client.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { pk: tenantKey(tenantId), sk: LIMITS_KEY, entity: 'limits', ...limits },
      }),
    );
  }
}

/** A window's counter outlives its second by this much; DynamoDB's TTL deletes it within days, unread. */
const COUNTER_TTL_SECONDS = 60;

/**
 * One conditional UpdateItem per request on the tenant's counter of the
 * current second: ADD 1 unless it holds `limit` already. Every second is its
 * own item, so no counter is ever reset (or read first) and a tenant's
 * seconds spread over partitions.
 */
export class DynamoDbRequestCounter implements RequestCounter {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async take(tenantId: string, second: number, limit: number): Promise<boolean> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: `RATE#${tenantId}#${second}` },
          UpdateExpression: 'ADD requests :one SET expiresAt = if_not_exists(expiresAt, :expiresAt)',
          ConditionExpression: 'attribute_not_exists(requests) OR requests < :limit',
          ExpressionAttributeValues: {
            ':one': 1,
            ':limit': limit,
            ':expiresAt': second + COUNTER_TTL_SECONDS,
          },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }
}
