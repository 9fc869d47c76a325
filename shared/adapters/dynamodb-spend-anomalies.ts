import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { type SpendAnomalySettings, spendAnomalySettingsSchema } from '../domain/waste/spend-anomaly';
import type { SpendAnomalyStore, StoredSpendSeries } from '../ports/spend-anomalies';
import { conditionally } from './dynamodb-budget-repository';
import { tenantKey } from './dynamodb-keys';
import { queryAll } from './dynamodb-query-all';

/**
 * Every series in one partition: each metering run reads them all in one query
 * (the budgets table would not do: the budget evaluator scans it whole).
 */
const SERIES_PARTITION = 'SPEND_ANOMALIES';
const SETTINGS_PREFIX = 'ANOMALY_SETTINGS#';

/**
 * Spend-anomaly baselines in the spend table: one item per series
 * (`SPEND_ANOMALIES`, `SERIES#<tenant>#<project>`), written by a put conditional
 * on the version the run read, so of two runs racing on a series one saves, and
 * the episode's alert claimed in that save is claimed once (as budget alerts
 * claim a threshold). Settings beside the tenant's rollups:
 * `TENANT#t`, `ANOMALY_SETTINGS#<project>` ('' for the tenant's own).
 */
export class DynamoDbSpendAnomalies implements SpendAnomalyStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async all(): Promise<StoredSpendSeries[]> {
    const items = await queryAll(this.client, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': SERIES_PARTITION },
      ConsistentRead: true,
    });
    return items.map(({ pk: _pk, sk: _sk, ...series }) => series as unknown as StoredSpendSeries);
  }

  save(series: StoredSpendSeries): Promise<boolean> {
    const previous = series.version - 1;
    return conditionally(
      this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
            pk: SERIES_PARTITION,
            sk: `SERIES#${series.tenantId}#${series.project ?? ''}`,
            ...series,
          },
          ...(previous === 0
            ? { ConditionExpression: 'attribute_not_exists(pk)' }
            : {
                ConditionExpression: 'version = :previous',
                ExpressionAttributeValues: { ':previous': previous },
              }),
        }),
      ),
    );
  }

  async settings(tenantId: string): Promise<Readonly<Record<string, SpendAnomalySettings>>> {
    const items = await queryAll(this.client, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': tenantKey(tenantId), ':prefix': SETTINGS_PREFIX },
    });
    return Object.fromEntries(
      items.map((item) => [
        String(item.sk).slice(SETTINGS_PREFIX.length),
        spendAnomalySettingsSchema.parse({ sensitivity: item.sensitivity, enabled: item.enabled }),
      ]),
    );
  }

  async putSettings(tenantId: string, project: string | undefined, settings: SpendAnomalySettings) {
    await this.client.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { pk: tenantKey(tenantId), sk: `${SETTINGS_PREFIX}${project ?? ''}`, ...settings },
      }),
    );
  }
}
