import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Charge } from '../domain/billing';
import type { LeaseInstance } from '../domain/lease';
import { monthOfCharge, spendScopesOf } from '../domain/spend';
import type { ChargeOutcome, MeteringLedger, UsageRecord } from '../ports/metering-ledger';
import { instanceKey, spendKey, tenantKey, usageKey } from './dynamodb-keys';

export interface MeteringTables {
  readonly leases: string;
  readonly usage: string;
  readonly spend: string;
}

/**
 * A charge is a usage row, the instance's checkpoint moving forward and the
 * month-to-date spend counters it adds to, written in one transaction guarded by
 * the previous checkpoint. Two ticks racing for the same window: one wins, the
 * other's condition fails and nothing is billed or counted twice.
 */
export class DynamoDbMeteringLedger implements MeteringLedger {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tables: MeteringTables,
  ) {}

  async applyCharge(
    instance: LeaseInstance,
    charge: Charge,
    atMs: number,
    close: { endedAtMs: number } | null,
  ): Promise<ChargeOutcome> {
    const sets = ['billedSeconds = :seconds', 'billedMicroUsd = :micro', 'meteredUntilMs = :at'];
    const values: Record<string, unknown> = {
      ':seconds': charge.checkpoint.billedSeconds,
      ':micro': charge.checkpoint.billedMicroUsd,
      ':at': atMs,
      ':prevSeconds': instance.billedSeconds,
    };
    if (close) {
      sets.push('endedAtMs = :endedAt');
      values[':endedAt'] = close.endedAtMs;
    }
    const checkpointUpdate = {
      Update: {
        TableName: this.tables.leases,
        Key: { pk: tenantKey(instance.tenantId), sk: instanceKey(instance.leaseId, instance.instanceId) },
        UpdateExpression: `SET ${sets.join(', ')}${close ? ' REMOVE meteringOpen' : ''}`,
        ConditionExpression: 'billedSeconds = :prevSeconds AND attribute_exists(meteringOpen)',
        ExpressionAttributeValues: values,
      },
    };
    const usageRow = {
      Put: {
        TableName: this.tables.usage,
        Item: {
          pk: tenantKey(instance.tenantId),
          sk: usageKey(atMs, instance.instanceId),
          tenantId: instance.tenantId,
          leaseId: instance.leaseId,
          instanceId: instance.instanceId,
          instanceType: instance.instanceType,
          mode: instance.mode,
          project: instance.project,
          atMs,
          seconds: charge.seconds,
          microUsd: charge.microUsd,
        } satisfies UsageRecord & { pk: string; sk: string },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    };
    const items =
      charge.seconds > 0
        ? [usageRow, checkpointUpdate, ...this.counterUpdates(instance, charge, atMs)]
        : [checkpointUpdate];
    try {
      await this.client.send(new TransactWriteCommand({ TransactItems: items }));
      return 'recorded';
    } catch (error) {
      if (isConditionFailure(error)) return 'already-recorded';
      throw error;
    }
  }

  /** One `ADD` per spend counter the charge counts toward (tenant, mode, lease, project). */
  private counterUpdates(instance: LeaseInstance, charge: Charge, atMs: number) {
    const month = monthOfCharge(atMs);
    return spendScopesOf(instance).map((scope) => {
      // A lease's counter also names the lease and its project, for the costliest-leases list.
      const labels: Record<string, string | undefined> =
        scope.kind === 'lease' ? { leaseId: instance.leaseId, project: instance.project } : {};
      const present = Object.entries(labels).filter(([, value]) => value !== undefined);
      return {
        Update: {
          TableName: this.tables.spend,
          Key: { pk: tenantKey(instance.tenantId), sk: spendKey(month, scope) },
          UpdateExpression: [
            'ADD microUsd :micro, seconds :seconds',
            `SET ${['tenantId = :tenant', '#month = :month', ...present.map(([name]) => `#${name} = :${name}`)].join(', ')}`,
          ].join(' '),
          // `month` and `project` are DynamoDB reserved words.
          ExpressionAttributeNames: {
            '#month': 'month',
            ...Object.fromEntries(present.map(([name]) => [`#${name}`, name])),
          },
          ExpressionAttributeValues: {
            ':micro': charge.microUsd,
            ':seconds': charge.seconds,
            ':tenant': instance.tenantId,
            ':month': month,
            ...Object.fromEntries(present.map(([name, value]) => [`:${name}`, value])),
          },
        },
      };
    });
  }

  async usage(tenantId: string, fromMs: number, toMs: number): Promise<UsageRecord[]> {
    const records: UsageRecord[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.client.send(
        new QueryCommand({
          TableName: this.tables.usage,
          // Rows are keyed `<ISO instant>#<instance>`: [from, to) is a plain key range.
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
          ExpressionAttributeValues: {
            ':pk': tenantKey(tenantId),
            ':from': new Date(fromMs).toISOString(),
            ':to': new Date(toMs).toISOString(),
          },
          ExclusiveStartKey: startKey,
        }),
      );
      for (const { pk: _pk, sk: _sk, ...record } of page.Items ?? []) records.push(record as UsageRecord);
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return records;
  }
}

function isConditionFailure(error: unknown): boolean {
  return (
    error instanceof TransactionCanceledException &&
    (error.CancellationReasons ?? []).some((reason) => reason.Code === 'ConditionalCheckFailed')
  );
}
