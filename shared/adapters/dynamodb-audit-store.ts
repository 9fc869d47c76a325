import { type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { MonthlyAudit } from '../domain/audit/monthly-audit';
import type { AuditStore, ChargedTenants, StoredAudit } from '../ports/audits';
import { MONTH_COUNTERS_INDEX } from '../resources';
import { conditionally } from './dynamodb-budget-repository';
import { spendKey, tenantKey } from './dynamodb-keys';
import { queryAll } from './dynamodb-query-all';

export const auditKey = (month: string) => `AUDIT#${month}`;

/**
 * One item per tenant and month (`TENANT#t`, `AUDIT#yyyy-mm`): the audit as
 * JSON, written once, and the claim and time of its announcement.
 */
export class DynamoDbAuditStore implements AuditStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async get(tenantId: string, month: string): Promise<StoredAudit | undefined> {
    const { Item } = await this.client.send(
      new GetCommand({ TableName: this.tableName, Key: this.key(tenantId, month), ConsistentRead: true }),
    );
    if (!Item) return undefined;
    return {
      audit: JSON.parse(String(Item.audit)) as MonthlyAudit,
      claimedAtMs: Item.claimedAtMs === undefined ? undefined : Number(Item.claimedAtMs),
      announcedAtMs: Item.announcedAtMs === undefined ? undefined : Number(Item.announcedAtMs),
    };
  }

  putIfAbsent(audit: MonthlyAudit): Promise<boolean> {
    return conditionally(
      this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
            ...this.key(audit.tenantId, audit.month),
            month: audit.month,
            audit: JSON.stringify(audit),
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      ),
    );
  }

  claimAnnouncement(tenantId: string, month: string, atMs: number, staleBeforeMs: number): Promise<boolean> {
    return conditionally(
      this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: this.key(tenantId, month),
          UpdateExpression: 'SET claimedAtMs = :at',
          ConditionExpression:
            'attribute_exists(pk) AND attribute_not_exists(announcedAtMs) AND ' +
            '(attribute_not_exists(claimedAtMs) OR claimedAtMs < :stale)',
          ExpressionAttributeValues: { ':at': atMs, ':stale': staleBeforeMs },
        }),
      ),
    );
  }

  async markAnnounced(tenantId: string, month: string, atMs: number): Promise<void> {
    await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: this.key(tenantId, month),
        UpdateExpression: 'SET announcedAtMs = if_not_exists(announcedAtMs, :at)',
        ExpressionAttributeValues: { ':at': atMs },
      }),
    );
  }

  private key(tenantId: string, month: string) {
    return { pk: tenantKey(tenantId), sk: auditKey(month) };
  }
}

/**
 * Tenants with a month-to-date tenant counter for the month: metering writes
 * one with the first charge of every instance (a one-minute minimum at launch),
 * so every tenant whose leases ran in the month has one. One query of the
 * spend table's month-counters index (the `month` attribute the counters
 * carry): one key per tenant, whatever the fleet size or number of charges.
 */
export class DynamoDbChargedTenants implements ChargedTenants {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly spendTableName: string,
  ) {}

  async chargedIn(month: string): Promise<string[]> {
    const items = await queryAll(this.client, {
      TableName: this.spendTableName,
      IndexName: MONTH_COUNTERS_INDEX,
      KeyConditionExpression: '#month = :month AND sk = :sk',
      ExpressionAttributeNames: { '#month': 'month' },
      ExpressionAttributeValues: { ':month': month, ':sk': spendKey(month, { kind: 'tenant' }) },
    });
    return items.map((item) => String(item.pk).slice(tenantKey('').length)).sort();
  }
}
