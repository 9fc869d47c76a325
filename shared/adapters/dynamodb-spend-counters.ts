import { BatchGetCommand, type DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mapWithConcurrency } from '../concurrency';
import type { LeaseSpend } from '../domain/budgets/alert-message';
import type { MicroUsd } from '../domain/money';
import type { SpendCounterKey, SpendCounters } from '../ports/budgets';
import { spendKey, spendMonthPrefix, tenantKey } from './dynamodb-keys';

/** BatchGetItem reads at most 100 keys a call. */
const BATCH_GET_LIMIT = 100;
/** BatchGetItem calls in flight at once. */
const BATCH_CONCURRENCY = 16;
/** Rounds of UnprocessedKeys before giving up (DynamoDB returns them under throttling). */
const MAX_UNPROCESSED_ROUNDS = 8;

export class UnprocessedSpendKeysError extends Error {
  constructor(readonly remaining: number) {
    super(`DynamoDB left ${remaining} spend counter(s) unread after ${MAX_UNPROCESSED_ROUNDS} rounds`);
    this.name = 'UnprocessedSpendKeysError';
  }
}

type Key = { pk: string; sk: string };
const keyOf = (key: SpendCounterKey): Key => ({
  pk: tenantKey(key.tenantId),
  sk: spendKey(key.month, key.scope),
});
const id = (key: Key) => `${key.pk}\n${key.sk}`;

/** Reads the month-to-date counters the metering ledger keeps (one item per scope). */
export class DynamoDbSpendCounters implements SpendCounters {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async spendOf(keys: readonly SpendCounterKey[]): Promise<MicroUsd[]> {
    const wanted = keys.map(keyOf);
    const unique = [...new Map(wanted.map((key) => [id(key), key])).values()];
    const found = new Map<string, MicroUsd>();
    const chunks: Key[][] = [];
    for (let start = 0; start < unique.length; start += BATCH_GET_LIMIT) {
      chunks.push(unique.slice(start, start + BATCH_GET_LIMIT));
    }
    await mapWithConcurrency(chunks, BATCH_CONCURRENCY, (chunk) => this.readChunk(chunk, found));
    return wanted.map((key) => found.get(id(key)) ?? 0);
  }

  async leaseSpends(tenantId: string, month: string, project?: string): Promise<LeaseSpend[]> {
    const spends: LeaseSpend[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: {
            ':pk': tenantKey(tenantId),
            ':prefix': `${spendMonthPrefix(month)}LEASE#`,
            ...(project ? { ':project': project } : {}),
          },
          ...(project
            ? { FilterExpression: '#project = :project', ExpressionAttributeNames: { '#project': 'project' } }
            : {}),
          ExclusiveStartKey: startKey,
        }),
      );
      for (const item of page.Items ?? []) {
        spends.push({ leaseId: String(item.leaseId), microUsd: Number(item.microUsd ?? 0) });
      }
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return spends;
  }

  private async readChunk(keys: Key[], found: Map<string, MicroUsd>): Promise<void> {
    let pending: Key[] = keys;
    for (let round = 0; round < MAX_UNPROCESSED_ROUNDS && pending.length > 0; round += 1) {
      const result = await this.client.send(
        new BatchGetCommand({
          RequestItems: {
            [this.tableName]: { Keys: pending, ProjectionExpression: 'pk, sk, microUsd' },
          },
        }),
      );
      for (const item of result.Responses?.[this.tableName] ?? []) {
        found.set(id({ pk: String(item.pk), sk: String(item.sk) }), Number(item.microUsd ?? 0));
      }
      pending = (result.UnprocessedKeys?.[this.tableName]?.Keys ?? []) as Key[];
      if (pending.length > 0) await new Promise((resolve) => setTimeout(resolve, 2 ** round * 25));
    }
    if (pending.length > 0) throw new UnprocessedSpendKeysError(pending.length);
  }
}
