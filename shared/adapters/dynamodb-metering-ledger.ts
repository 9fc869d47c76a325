import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mapWithConcurrency } from '../concurrency';
import {
  type AggregateTotal,
  type ChargeBatch,
  type ChargeEntry,
  chargedEntries,
  chargeLines,
  packChargeBatches,
} from '../domain/charge-batches';
import type { ChargeOutcome, MeteringLedger, UsageCharge, UsageRecord } from '../ports/metering-ledger';
import { aggregateKey, closingUsageKey, instanceKey, tenantKey, usageKey } from './dynamodb-keys';
import { cancellationReasons, transactRetryingConflicts } from './dynamodb-transactions';

export interface MeteringTables {
  readonly leases: string;
  readonly usage: string;
  readonly spend: string;
}

export interface MeteringLedgerOptions {
  /** Usage records expire (DynamoDB TTL) this many days after their last charge. @default 400 */
  readonly usageRowTtlDays?: number;
  /** Transactions in flight at once. @default 16 */
  readonly concurrency?: number;
}

const DAY_SECONDS = 86_400;

/**
 * A charge is the instance's checkpoint moving forward, its line in the usage
 * record of its transaction and the aggregates it adds to (month-to-date
 * counters, daily rollups), written in one transaction guarded by the previous
 * checkpoint. Charges are packed up to 100 actions a transaction, their
 * aggregates summed, one usage record holding them all. Two runs racing for the same
 * window: one wins, the other's condition fails and nothing is billed or counted
 * twice; a batch that fails a condition is retried charge by charge, so the
 * others in it still land.
 */
export class DynamoDbMeteringLedger implements MeteringLedger {
  private readonly rowTtlSeconds: number;
  private readonly concurrency: number;

  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tables: MeteringTables,
    options: MeteringLedgerOptions = {},
  ) {
    this.rowTtlSeconds = (options.usageRowTtlDays ?? 400) * DAY_SECONDS;
    this.concurrency = options.concurrency ?? 16;
  }

  /**
   * A tenant's batches share its month-to-date counters, and DynamoDB cancels a
   * transaction that touches an item another one is writing: each tenant's
   * batches go one after another, tenants side by side.
   */
  async applyCharges(entries: readonly ChargeEntry[]): Promise<ChargeOutcome[]> {
    const outcomes = new Map<ChargeEntry, ChargeOutcome>();
    const byTenant = new Map<string, ChargeEntry[]>();
    for (const entry of entries) {
      const lane = byTenant.get(entry.instance.tenantId);
      if (lane) lane.push(entry);
      else byTenant.set(entry.instance.tenantId, [entry]);
    }
    await mapWithConcurrency([...byTenant.values()], this.concurrency, async (tenantEntries) => {
      for (const batch of packChargeBatches(tenantEntries)) {
        if (await this.write(batch)) {
          for (const entry of batch.entries) outcomes.set(entry, 'recorded');
          continue;
        }
        // One stale checkpoint sank the batch: each charge on its own, so the rest still land.
        for (const entry of batch.entries) {
          const [single] = packChargeBatches([entry]);
          outcomes.set(entry, single && (await this.write(single)) ? 'recorded' : 'already-recorded');
        }
      }
    });
    return entries.map((entry) => outcomes.get(entry) ?? 'already-recorded');
  }

  /**
   * True when the transaction committed, false when a checkpoint condition
   * failed. A conflict with another transaction on a shared counter (an
   * overlapping run, a bill closing) is retried with jittered backoff.
   */
  private async write(batch: ChargeBatch): Promise<boolean> {
    const items = [
      ...this.usageRecordPut(batch),
      ...batch.entries.map((entry) => this.checkpointUpdate(entry)),
      ...batch.totals.map((total) => this.aggregateUpdate(total)),
    ];
    try {
      await transactRetryingConflicts(this.client, items);
      return true;
    } catch (error) {
      if (cancellationReasons(error).includes('ConditionalCheckFailed')) return false;
      throw error;
    }
  }

  private checkpointUpdate({ instance, charge, atMs, close, storage, checkpoint }: ChargeEntry) {
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
    if (storage) {
      // Storage moves only with a charge the billedSeconds condition guards, so it is never counted twice.
      sets.push('storageBilledSeconds = :storageSeconds', 'storageBilledMicroUsd = :storageMicro');
      values[':storageSeconds'] = storage.checkpoint.storageBilledSeconds;
      values[':storageMicro'] = storage.checkpoint.storageBilledMicroUsd;
    }
    if (checkpoint) {
      // The lease's checkpoints, like storage, move only under the billedSeconds condition.
      const { state } = checkpoint;
      sets.push(
        'checkpointBytes = :ckptBytes',
        'checkpointByteMs = :ckptByteMs',
        'checkpointBilledMicroUsd = :ckptMicro',
      );
      values[':ckptBytes'] = state.checkpointBytes;
      values[':ckptByteMs'] = state.checkpointByteMs;
      values[':ckptMicro'] = state.checkpointBilledMicroUsd;
      if (state.checkpointMeasuredAtMs !== undefined) {
        sets.push('checkpointMeasuredAtMs = :ckptMeasuredAt');
        values[':ckptMeasuredAt'] = state.checkpointMeasuredAtMs;
      }
    }
    return {
      Update: {
        TableName: this.tables.leases,
        Key: { pk: tenantKey(instance.tenantId), sk: instanceKey(instance.leaseId, instance.instanceId) },
        UpdateExpression: `SET ${sets.join(', ')}${close ? ' REMOVE meteringOpen' : ''}`,
        ConditionExpression: 'billedSeconds = :prevSeconds AND attribute_exists(meteringOpen)',
        ExpressionAttributeValues: values,
      },
    };
  }

  /**
   * The batch's usage record, keyed by its first charge as a lone charge's row
   * would be: two committed batches never share a first charge (the second's
   * checkpoint condition fails), so the key is unique without being random. A
   * batch that owes nothing (closes at the checkpoint) writes none.
   */
  private usageRecordPut(batch: ChargeBatch) {
    const charged = chargedEntries(batch);
    const [first] = charged;
    if (!first) return [];
    const { instance, atMs, close } = first;
    const record: UsageRecord = {
      tenantId: instance.tenantId,
      atMs,
      charges: charged.flatMap((entry) =>
        chargeLines(entry).map(
          (line): UsageCharge => ({
            leaseId: entry.instance.leaseId,
            instanceId: entry.instance.instanceId,
            instanceType: entry.instance.instanceType,
            mode: entry.instance.mode,
            ...(entry.instance.project === undefined ? {} : { project: entry.instance.project }),
            dimension: line.dimension,
            ...(line.part === undefined ? {} : { part: line.part }),
            atMs: entry.atMs,
            seconds: line.seconds,
            microUsd: line.microUsd,
          }),
        ),
      ),
    };
    const lastMs = Math.max(...charged.map((entry) => entry.atMs));
    return [
      {
        Put: {
          TableName: this.tables.usage,
          Item: {
            pk: tenantKey(instance.tenantId),
            sk: close ? closingUsageKey(atMs, instance.instanceId) : usageKey(atMs, instance.instanceId),
            ...record,
            expiresAt: Math.floor(lastMs / 1000) + this.rowTtlSeconds,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ];
  }

  /** `ADD` the batch's sum to one aggregate; its descriptive attributes are (re)set alongside. */
  private aggregateUpdate(total: AggregateTotal) {
    const { aggregate } = total;
    const labels: Record<string, string | undefined> =
      aggregate.kind === 'month'
        ? { month: aggregate.month }
        : aggregate.kind === 'day'
          ? {
              day: aggregate.day,
              mode: aggregate.mode,
              instanceType: aggregate.instanceType,
              project: aggregate.project,
            }
          : aggregate.kind === 'lease-day'
            ? { day: aggregate.day, leaseId: aggregate.leaseId, project: aggregate.project }
            : { day: aggregate.day, dimension: aggregate.dimension };
    const present = Object.entries({ tenantId: total.tenantId, ...labels }).filter(
      ([, value]) => value !== undefined,
    );
    return {
      Update: {
        TableName: this.tables.spend,
        Key: { pk: tenantKey(total.tenantId), sk: aggregateKey(aggregate) },
        UpdateExpression: `ADD microUsd :micro, seconds :seconds SET ${present
          .map(([name]) => `#${name} = :${name}`)
          .join(', ')}`,
        // Names go through placeholders: `month`, `day` and `project` are DynamoDB reserved words.
        ExpressionAttributeNames: Object.fromEntries(present.map(([name]) => [`#${name}`, name])),
        ExpressionAttributeValues: {
          ':micro': total.microUsd,
          ':seconds': total.seconds,
          ...Object.fromEntries(present.map(([name, value]) => [`:${name}`, value])),
        },
      },
    };
  }
}
