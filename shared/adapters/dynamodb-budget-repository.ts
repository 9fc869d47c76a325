import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { AlertRecord, Budget } from '../domain/budgets/budget';
import type { BudgetRepository } from '../ports/budgets';
import { budgetKey, tenantKey } from './dynamodb-keys';
import { queryAll, scanAll } from './dynamodb-query-all';

type Item = Record<string, unknown>;

/** Scan segments the evaluator reads in parallel. */
const SCAN_SEGMENTS = 8;

function toBudget(item: Item): Budget {
  const { pk: _pk, sk: _sk, alerts, ...budget } = item;
  return { ...(budget as unknown as Budget), alerts: (alerts ?? {}) as Budget['alerts'] };
}

/** Runs a conditional write; false when its condition did not hold. */
export async function conditionally(write: Promise<unknown>): Promise<boolean> {
  try {
    await write;
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/**
 * One item per budget (`TENANT#t`, `BUDGET#name`) that also carries the month's
 * alert records in a map. Claims are conditional updates on that map, so two
 * evaluations racing for one threshold cannot both win it, and the evaluator's
 * round reads budgets only, never one item per alert.
 */
export class DynamoDbBudgetRepository implements BudgetRepository {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async get(tenantId: string, name: string): Promise<Budget | undefined> {
    const result = await this.client.send(
      new GetCommand({
        TableName: this.tableName,
        Key: { pk: tenantKey(tenantId), sk: budgetKey(name) },
        ConsistentRead: true,
      }),
    );
    return result.Item ? toBudget(result.Item) : undefined;
  }

  async list(tenantId: string): Promise<Budget[]> {
    const items = await queryAll(this.client, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': tenantKey(tenantId), ':prefix': budgetKey('') },
      ConsistentRead: true,
    });
    return items.map(toBudget);
  }

  async all(): Promise<Budget[]> {
    return (await scanAll(this.client, { TableName: this.tableName }, SCAN_SEGMENTS)).map(toBudget);
  }

  save(budget: Budget, expectedRevision: number | undefined): Promise<boolean> {
    return conditionally(
      this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { pk: tenantKey(budget.tenantId), sk: budgetKey(budget.name), ...budget },
          ...(expectedRevision === undefined
            ? { ConditionExpression: 'attribute_not_exists(pk)' }
            : {
                ConditionExpression: 'revision = :expected',
                ExpressionAttributeValues: { ':expected': expectedRevision },
              }),
        }),
      ),
    );
  }

  async delete(tenantId: string, name: string): Promise<boolean> {
    const result = await this.client.send(
      new DeleteCommand({
        TableName: this.tableName,
        Key: { pk: tenantKey(tenantId), sk: budgetKey(name) },
        ReturnValues: 'ALL_OLD',
      }),
    );
    return result.Attributes !== undefined;
  }

  async claimAlert(budget: Budget, month: string, key: string, record: AlertRecord): Promise<boolean> {
    const target = { pk: tenantKey(budget.tenantId), sk: budgetKey(budget.name) };
    if (budget.alertMonth !== month) {
      // The first claim of a month replaces last month's records in the same write.
      const rolledOver = await conditionally(
        this.client.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: target,
            UpdateExpression: 'SET alertMonth = :month, alerts = :alerts',
            ConditionExpression:
              'revision = :revision AND (attribute_not_exists(alertMonth) OR alertMonth <> :month)',
            ExpressionAttributeValues: {
              ':month': month,
              ':alerts': { [key]: record },
              ':revision': budget.revision,
            },
          }),
        ),
      );
      if (rolledOver) return true;
    }
    return conditionally(
      this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: target,
          UpdateExpression: 'SET alerts.#key = :record',
          ConditionExpression:
            'revision = :revision AND alertMonth = :month AND attribute_not_exists(alerts.#key)',
          ExpressionAttributeNames: { '#key': key },
          ExpressionAttributeValues: { ':record': record, ':revision': budget.revision, ':month': month },
        }),
      ),
    );
  }

  takeOverClaim(
    budget: Budget,
    month: string,
    key: string,
    record: AlertRecord,
    atMs: number,
  ): Promise<boolean> {
    return conditionally(
      this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: tenantKey(budget.tenantId), sk: budgetKey(budget.name) },
          UpdateExpression: 'SET alerts.#key.claimedAtMs = :now',
          ConditionExpression:
            'revision = :revision AND alertMonth = :month AND alerts.#key.claimedAtMs = :claimed AND attribute_not_exists(alerts.#key.sentAtMs)',
          ExpressionAttributeNames: { '#key': key },
          ExpressionAttributeValues: {
            ':now': atMs,
            ':revision': budget.revision,
            ':month': month,
            ':claimed': record.claimedAtMs,
          },
        }),
      ),
    );
  }

  async markSent(budget: Budget, month: string, key: string, alertId: string, atMs: number): Promise<void> {
    // A budget changed or re-armed meanwhile has no such record left: nothing to mark.
    await conditionally(
      this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: tenantKey(budget.tenantId), sk: budgetKey(budget.name) },
          UpdateExpression: 'SET alerts.#key.sentAtMs = :now',
          ConditionExpression: 'alertMonth = :month AND alerts.#key.alertId = :alertId',
          ExpressionAttributeNames: { '#key': key },
          ExpressionAttributeValues: { ':now': atMs, ':month': month, ':alertId': alertId },
        }),
      ),
    );
  }
}
