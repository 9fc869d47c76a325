import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { LeaseSpend } from '../domain/budgets/alert-message';
import type { RentalMode } from '../domain/lease';
import type { MicroUsd } from '../domain/money';
import type { ExtraDimension } from '../domain/spend';
import type {
  DailyUsage,
  DimensionDayUsage,
  LeaseDayUsage,
  SpendCounterKey,
  SpendCounters,
} from '../ports/budgets';
import { batchGetAll } from './dynamodb-batch-get';
import { dayRollupPrefix, dimensionDayPrefix, leaseDayPrefix, spendKey, tenantKey } from './dynamodb-keys';
import { queryAll } from './dynamodb-query-all';

type Key = { pk: string; sk: string };
const keyOf = (key: SpendCounterKey): Key => ({
  pk: tenantKey(key.tenantId),
  sk: spendKey(key.month, key.scope),
});
const id = (key: Key) => `${key.pk}\n${key.sk}`;

/** Reads the aggregates the metering ledger keeps: month-to-date counters and daily rollups. */
export class DynamoDbSpendCounters implements SpendCounters {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async spendOf(keys: readonly SpendCounterKey[]): Promise<MicroUsd[]> {
    const wanted = keys.map(keyOf);
    const unique = [...new Map(wanted.map((key) => [id(key), key])).values()];
    const items = await batchGetAll(this.client, this.tableName, unique, { projection: 'pk, sk, microUsd' });
    const found = new Map(
      items.map((item) => [id({ pk: String(item.pk), sk: String(item.sk) }), Number(item.microUsd ?? 0)]),
    );
    return wanted.map((key) => found.get(id(key)) ?? 0);
  }

  async leaseSpends(tenantId: string, month: string, project?: string): Promise<LeaseSpend[]> {
    const days = await this.leaseDailyUsage(tenantId, `${month}-01`, `${month}-31`);
    const byLease = new Map<string, number>();
    for (const day of days) {
      if (project !== undefined && day.project !== project) continue;
      byLease.set(day.leaseId, (byLease.get(day.leaseId) ?? 0) + day.microUsd);
    }
    return [...byLease].map(([leaseId, microUsd]) => ({ leaseId, microUsd }));
  }

  async dailyUsage(tenantId: string, fromDay: string, toDay: string): Promise<DailyUsage[]> {
    const items = await this.queryRange(tenantId, dayRollupPrefix(fromDay), `${dayRollupPrefix(toDay)}#~`);
    return items.map((item) => ({
      day: String(item.day),
      mode: item.mode as RentalMode,
      instanceType: String(item.instanceType),
      project: item.project === undefined ? undefined : String(item.project),
      seconds: Number(item.seconds ?? 0),
      microUsd: Number(item.microUsd ?? 0),
    }));
  }

  async leaseDailyUsage(tenantId: string, fromDay: string, toDay: string): Promise<LeaseDayUsage[]> {
    const items = await this.queryRange(tenantId, leaseDayPrefix(fromDay), `${leaseDayPrefix(toDay)}#~`);
    return items.map((item) => ({
      day: String(item.day),
      leaseId: String(item.leaseId),
      project: item.project === undefined ? undefined : String(item.project),
      seconds: Number(item.seconds ?? 0),
      microUsd: Number(item.microUsd ?? 0),
    }));
  }

  async dimensionDailyUsage(tenantId: string, fromDay: string, toDay: string): Promise<DimensionDayUsage[]> {
    const items = await this.queryRange(
      tenantId,
      dimensionDayPrefix(fromDay),
      `${dimensionDayPrefix(toDay)}#~`,
    );
    return items.map((item) => ({
      day: String(item.day),
      dimension: item.dimension as ExtraDimension,
      mode: item.mode as RentalMode,
      microUsd: Number(item.microUsd ?? 0),
    }));
  }

  /** Every item of the tenant's partition with a sort key in [from, to]. */
  private queryRange(tenantId: string, from: string, to: string): Promise<Record<string, unknown>[]> {
    return queryAll(this.client, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': tenantKey(tenantId), ':from': from, ':to': to },
    });
  }
}
