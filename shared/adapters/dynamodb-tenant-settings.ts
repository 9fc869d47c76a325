import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { TenantSettings, TenantSettingsRepository } from '../ports/lease-expiry';
import { SETTINGS_KEY, tenantKey } from './dynamodb-keys';

/** One item per tenant in the leases table (`TENANT#t`, `SETTINGS`); absent means no settings. */
export class DynamoDbTenantSettings implements TenantSettingsRepository {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async get(tenantId: string): Promise<TenantSettings> {
    const { Item } = await this.client.send(
      new GetCommand({ TableName: this.tableName, Key: { pk: tenantKey(tenantId), sk: SETTINGS_KEY } }),
    );
    return { defaultLeaseDurationMinutes: Item?.defaultLeaseDurationMinutes as number | undefined };
  }

  async put(tenantId: string, settings: TenantSettings): Promise<void> {
    await this.client.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { pk: tenantKey(tenantId), sk: SETTINGS_KEY, entity: 'settings', ...settings },
      }),
    );
  }
}
