import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { EMPTY_IDLE_CHECKPOINT, type IdleCheckpoint, idleRollupKeys } from '../domain/waste/idle-ledger';
import type { IdleChargeRecord, IdleDayTotals, IdleLedger } from '../ports/idle';
import { batchGetAll } from './dynamodb-batch-get';
import { tenantKey } from './dynamodb-keys';
import { queryAll } from './dynamodb-query-all';

const CHECKPOINT_PREFIX = 'IDLECHECK#';
const ROLLUP_PREFIX = 'IDLEDAY#';
const checkpointKey = (tenantId: string, instanceId: string) => ({
  pk: tenantKey(tenantId),
  sk: `${CHECKPOINT_PREFIX}${instanceId}`,
});

/**
 * The waste ledger in the spend table, beside the bills' rollups: per instance
 * an `IDLECHECK#<instance>` checkpoint, per tenant and day `IDLEDAY#<day>#TENANT`,
 * `…#PROJECT#<p>` and `…#LEASE#<lease>` rollups, added to in the checkpoint's
 * transaction (as metering adds to its rollups), so a repeated or racing run
 * can never count a second twice.
 */
export class DynamoDbIdleLedger implements IdleLedger {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async checkpoints(
    instances: readonly { tenantId: string; leaseId: string; instanceId: string }[],
  ): Promise<IdleCheckpoint[]> {
    const keys = instances.map((i) => checkpointKey(i.tenantId, i.instanceId));
    const items = await batchGetAll(this.client, this.tableName, keys);
    const found = new Map(items.map((item) => [`${item.pk}\n${item.sk}`, item]));
    return keys.map((key) => {
      const item = found.get(`${key.pk}\n${key.sk}`);
      if (!item) return EMPTY_IDLE_CHECKPOINT;
      return {
        billedSeconds: Number(item.billedSeconds),
        idleIntegral: Number(item.idleIntegral),
        idleMicroUsd: Number(item.idleMicroUsd),
      };
    });
  }

  async record(charge: IdleChargeRecord): Promise<boolean> {
    const pk = tenantKey(charge.tenantId);
    const checkpoint = {
      Update: {
        TableName: this.tableName,
        Key: checkpointKey(charge.tenantId, charge.instanceId),
        UpdateExpression:
          'SET billedSeconds = :seconds, idleIntegral = :integral, idleMicroUsd = :micro, leaseId = :lease',
        ConditionExpression:
          charge.from.billedSeconds === 0
            ? 'attribute_not_exists(billedSeconds) OR billedSeconds = :from'
            : 'billedSeconds = :from',
        ExpressionAttributeValues: {
          ':seconds': charge.to.billedSeconds,
          ':integral': charge.to.idleIntegral,
          ':micro': charge.to.idleMicroUsd,
          ':lease': charge.leaseId,
          ':from': charge.from.billedSeconds,
        },
      },
    };
    const rollups = charge.days.flatMap((day) =>
      idleRollupKeys({ project: charge.project, leaseId: charge.leaseId, day: day.day }).map(
        (key, level) => ({
          Update: {
            TableName: this.tableName,
            Key: { pk, sk: `${ROLLUP_PREFIX}${key}` },
            UpdateExpression: `ADD idleGpuSeconds :gpuSeconds, idleMicroUsd :micro SET #day = :day, #kind = :kind${
              level === 0 ? '' : ', #project = :project'
            }${level === 2 ? ', leaseId = :lease' : ''}`,
            // `day` and `project` are DynamoDB reserved words (`kind` is kept beside them alike).
            ExpressionAttributeNames: {
              '#day': 'day',
              '#kind': 'kind',
              ...(level === 0 ? {} : { '#project': 'project' }),
            },
            ExpressionAttributeValues: {
              ':gpuSeconds': day.idleGpuSeconds,
              ':micro': day.idleMicroUsd,
              ':day': day.day,
              ':kind': (['tenant', 'project', 'lease'] as const)[level],
              ...(level === 0 ? {} : { ':project': charge.project ?? '-' }),
              ...(level === 2 ? { ':lease': charge.leaseId } : {}),
            },
          },
        }),
      ),
    );
    try {
      await this.client.send(new TransactWriteCommand({ TransactItems: [checkpoint, ...rollups] }));
      return true;
    } catch (error) {
      if (error instanceof TransactionCanceledException) {
        if (error.CancellationReasons?.[0]?.Code === 'ConditionalCheckFailed') return false;
      }
      throw error;
    }
  }

  async dailyIdle(tenantId: string, fromDay: string, toDay: string): Promise<IdleDayTotals[]> {
    const items = await queryAll(this.client, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: {
        ':pk': tenantKey(tenantId),
        ':from': `${ROLLUP_PREFIX}${fromDay}`,
        ':to': `${ROLLUP_PREFIX}${toDay}#~`,
      },
    });
    return items.map((item) => ({
      day: String(item.day),
      kind: item.kind as IdleDayTotals['kind'],
      project: item.project === undefined ? undefined : String(item.project),
      leaseId: item.leaseId === undefined ? undefined : String(item.leaseId),
      idleGpuSeconds: Number(item.idleGpuSeconds ?? 0),
      idleMicroUsd: Number(item.idleMicroUsd ?? 0),
    }));
  }
}
