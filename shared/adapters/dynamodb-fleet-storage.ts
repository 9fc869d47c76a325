import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { monthOfCharge } from '../domain/spend';
import type { StorageCheckpoint } from '../domain/storage-billing';
import type { FleetStorageEntry, FleetStorageLedger } from '../ports/fleet-storage';
import { batchGetAll } from './dynamodb-batch-get';

/** The fleet's own partition of the spend table: no tenant's, so no tenant query or month index sees it. */
const FLEET_PK = 'FLEET';
const stretchKey = (stretchId: string) => ({ pk: FLEET_PK, sk: `FLEETSTORAGE#${stretchId}` });
const monthKey = (month: string) => ({ pk: FLEET_PK, sk: `FLEETMONTH#${month}` });

/**
 * The fleet's storage overhead in the spend table: a checkpoint per stopped
 * stretch and a month-to-date total, moved together in one transaction whose
 * condition is the checkpoint the charge was computed from.
 */
export class DynamoDbFleetStorageLedger implements FleetStorageLedger {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async checkpoints(stretchIds: readonly string[]): Promise<Map<string, StorageCheckpoint>> {
    const items = await batchGetAll(this.client, this.tableName, stretchIds.map(stretchKey));
    return new Map(
      items.map((item) => [
        String(item.stretchId),
        {
          storageBilledSeconds: Number(item.storageBilledSeconds),
          storageBilledMicroUsd: Number(item.storageBilledMicroUsd),
        },
      ]),
    );
  }

  async apply(entries: readonly FleetStorageEntry[]): Promise<boolean[]> {
    const applied: boolean[] = [];
    for (const entry of entries) applied.push(await this.applyOne(entry));
    return applied;
  }

  async monthTotal(month: string): Promise<number> {
    const { Item } = await this.client.send(
      new GetCommand({ TableName: this.tableName, Key: monthKey(month) }),
    );
    return Number(Item?.storageMicroUsd ?? 0);
  }

  private async applyOne({ stretch, charge, atMs }: FleetStorageEntry): Promise<boolean> {
    const from = charge.checkpoint.storageBilledSeconds - charge.seconds;
    const month = monthOfCharge(atMs);
    try {
      await this.client.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: this.tableName,
                Key: stretchKey(stretch.stretchId),
                UpdateExpression:
                  'SET stretchId = :id, storageBilledSeconds = :seconds, storageBilledMicroUsd = :micro, #region = :region, volumeGb = :gb',
                ConditionExpression:
                  from === 0
                    ? 'attribute_not_exists(storageBilledSeconds) OR storageBilledSeconds = :from'
                    : 'storageBilledSeconds = :from',
                ExpressionAttributeNames: { '#region': 'region' },
                ExpressionAttributeValues: {
                  ':id': stretch.stretchId,
                  ':seconds': charge.checkpoint.storageBilledSeconds,
                  ':micro': charge.checkpoint.storageBilledMicroUsd,
                  ':region': stretch.region,
                  ':gb': stretch.volumeGb,
                  ':from': from,
                },
              },
            },
            {
              Update: {
                TableName: this.tableName,
                Key: monthKey(month),
                UpdateExpression: 'ADD storageMicroUsd :micro SET #month = :month',
                // Not `month`: that attribute feeds the month-counters index of tenants charged.
                ExpressionAttributeNames: { '#month': 'fleetMonth' },
                ExpressionAttributeValues: { ':micro': charge.microUsd, ':month': month },
              },
            },
          ],
        }),
      );
      return true;
    } catch (error) {
      if (
        error instanceof TransactionCanceledException &&
        error.CancellationReasons?.[0]?.Code === 'ConditionalCheckFailed'
      )
        return false;
      throw error;
    }
  }
}
