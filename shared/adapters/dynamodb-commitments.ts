import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { type Commitment, type CommitmentHolder, committedGpus, type MonthIdle } from '../domain/commitments';
import { monthOfCharge } from '../domain/spend';
import {
  type ClaimOutcome,
  type CommitmentDefinition,
  CommitmentInUseError,
  type CommitmentPage,
  type CommitmentRepository,
  type IdleReserved,
} from '../ports/commitments';
import { decodeCursor, encodeCursor } from './dynamodb-cursor';
import { COMMITMENTS_PARTITION, commitmentKey, idleMonthKey, idleUsageKey } from './dynamodb-keys';
import { queryAll } from './dynamodb-query-all';

export interface CommitmentTables {
  /** Commitments live in the leases table, in their own partition. */
  readonly leases: string;
  /** Idle reserved time is written next to the tenants' usage, under the commitment. */
  readonly usage: string;
}

type Item = Record<string, unknown>;

function toCommitment(item: Item): Commitment {
  const {
    pk: _pk,
    sk: _sk,
    entity: _entity,
    usedGpus: _used,
    committedGpus: _committed,
    ...commitment
  } = item;
  return { ...(commitment as unknown as Commitment), holders: (item.holders ?? {}) as Commitment['holders'] };
}

/**
 * Slots are a counter and a map on the commitment item: a claim adds the
 * lease to `holders` and its GPUs to `usedGpus` in one conditional update, so
 * two workers can never hand out the same reserved GPU.
 */
export class DynamoDbCommitmentRepository implements CommitmentRepository {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tables: CommitmentTables,
  ) {}

  async put(definition: CommitmentDefinition): Promise<Commitment> {
    const committed = definition.count * definition.gpusPerInstance;
    const fields = Object.entries(definition).filter(([, value]) => value !== undefined);
    try {
      const result = await this.client.send(
        new UpdateCommand({
          TableName: this.tables.leases,
          Key: this.key(definition.id),
          UpdateExpression: `SET ${[
            ...fields.map(([name]) => `#${name} = :${name}`),
            'committedGpus = :committed',
            'entity = :entity',
            'holders = if_not_exists(holders, :noHolders)',
            'usedGpus = if_not_exists(usedGpus, :zero)',
            'idleMeteredUntilMs = if_not_exists(idleMeteredUntilMs, :startMs)',
          ].join(
            ', ',
          )}${definition.capacityReservationId === undefined ? ' REMOVE capacityReservationId' : ''}`,
          ConditionExpression: 'attribute_not_exists(pk) OR usedGpus <= :committed',
          ExpressionAttributeNames: Object.fromEntries(fields.map(([name]) => [`#${name}`, name])),
          ExpressionAttributeValues: {
            ...Object.fromEntries(fields.map(([name, value]) => [`:${name}`, value])),
            ':committed': committed,
            ':entity': 'commitment',
            ':noHolders': {},
            ':zero': 0,
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return toCommitment(result.Attributes ?? {});
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      const current = await this.get(definition.id);
      throw new CommitmentInUseError(definition.id, current ? committedGpus(current) : 0);
    }
  }

  async get(id: string): Promise<Commitment | undefined> {
    const result = await this.client.send(
      new GetCommand({ TableName: this.tables.leases, Key: this.key(id), ConsistentRead: true }),
    );
    return result.Item ? toCommitment(result.Item) : undefined;
  }

  async list(): Promise<Commitment[]> {
    const items = await queryAll(this.client, {
      TableName: this.tables.leases,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': COMMITMENTS_PARTITION },
      ConsistentRead: true,
    });
    return items.map(toCommitment);
  }

  async page(limit: number, cursor?: string): Promise<CommitmentPage> {
    const result = await this.client.send(
      new QueryCommand({
        TableName: this.tables.leases,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': COMMITMENTS_PARTITION },
        Limit: limit,
        ExclusiveStartKey: decodeCursor(cursor, COMMITMENTS_PARTITION, commitmentKey('')),
        ConsistentRead: true,
      }),
    );
    return {
      commitments: (result.Items ?? []).map(toCommitment),
      nextCursor: encodeCursor(result.LastEvaluatedKey),
    };
  }

  async delete(id: string): Promise<boolean> {
    try {
      const result = await this.client.send(
        new DeleteCommand({
          TableName: this.tables.leases,
          Key: this.key(id),
          ConditionExpression: 'attribute_not_exists(pk) OR usedGpus = :zero',
          ExpressionAttributeValues: { ':zero': 0 },
          ReturnValues: 'ALL_OLD',
        }),
      );
      return result.Attributes !== undefined;
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      const current = await this.get(id);
      const held = Object.values(current?.holders ?? {}).reduce((sum, holder) => sum + holder.gpus, 0);
      throw new CommitmentInUseError(id, held);
    }
  }

  async claim(id: string, leaseId: string, holder: CommitmentHolder): Promise<ClaimOutcome> {
    const current = await this.get(id);
    if (!current) return 'no-room';
    if (current.holders[leaseId]) return 'already-held';
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tables.leases,
          Key: this.key(id),
          UpdateExpression: 'SET holders.#lease = :holder, usedGpus = usedGpus + :gpus',
          // No arithmetic in conditions: the room is checked against the commitment as read.
          ConditionExpression:
            'attribute_not_exists(holders.#lease) AND committedGpus = :committed AND usedGpus <= :maxUsedBefore',
          ExpressionAttributeNames: { '#lease': leaseId },
          ExpressionAttributeValues: {
            ':holder': holder,
            ':gpus': holder.gpus,
            ':committed': committedGpus(current),
            ':maxUsedBefore': committedGpus(current) - holder.gpus,
          },
        }),
      );
      return 'claimed';
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      return (await this.get(id))?.holders[leaseId] ? 'already-held' : 'no-room';
    }
  }

  async release(id: string, leaseId: string): Promise<void> {
    const held = (await this.get(id))?.holders[leaseId];
    if (!held) return;
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tables.leases,
          Key: this.key(id),
          UpdateExpression: 'REMOVE holders.#lease SET usedGpus = usedGpus - :gpus',
          ConditionExpression: 'attribute_exists(holders.#lease)',
          ExpressionAttributeNames: { '#lease': leaseId },
          ExpressionAttributeValues: { ':gpus': held.gpus },
        }),
      );
    } catch (error) {
      // Freed by a concurrent release: the state we wanted.
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }

  async recordIdle(commitment: Commitment, untilMs: number, idle: IdleReserved): Promise<boolean> {
    try {
      await this.client.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: this.tables.leases,
                Key: this.key(commitment.id),
                UpdateExpression: 'SET idleMeteredUntilMs = :until',
                ConditionExpression: 'idleMeteredUntilMs = :from',
                ExpressionAttributeValues: { ':until': untilMs, ':from': commitment.idleMeteredUntilMs },
              },
            },
            {
              Put: {
                TableName: this.tables.usage,
                Item: {
                  ...idleUsageKey(commitment.id, untilMs),
                  commitmentId: commitment.id,
                  instanceType: commitment.instanceType,
                  region: commitment.region,
                  zone: commitment.zone,
                  fromMs: commitment.idleMeteredUntilMs,
                  atMs: untilMs,
                  idleGpuSeconds: idle.idleGpuSeconds,
                  idleMicroUsd: idle.idleMicroUsd,
                },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            {
              // The month's total per commitment, for the audit: one partition per month.
              Update: {
                TableName: this.tables.usage,
                Key: idleMonthKey(monthOfCharge(untilMs), commitment.id),
                UpdateExpression:
                  'ADD idleGpuSeconds :gpuSeconds, idleMicroUsd :micro SET instanceType = :type, ' +
                  'committedGpus = :committed, hourlyMicroUsd = :rate',
                ExpressionAttributeValues: {
                  ':gpuSeconds': idle.idleGpuSeconds,
                  ':micro': idle.idleMicroUsd,
                  ':type': commitment.instanceType,
                  ':committed': committedGpus(commitment),
                  ':rate': commitment.hourlyMicroUsd,
                },
              },
            },
          ],
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof TransactionCanceledException) return false;
      throw error;
    }
  }

  async idleInMonth(month: string): Promise<MonthIdle[]> {
    const items = await queryAll(this.client, {
      TableName: this.tables.usage,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': idleMonthKey(month, '').pk },
    });
    return items.map((item) => ({
      commitmentId: String(item.sk).slice(commitmentKey('').length),
      instanceType: String(item.instanceType),
      committedGpus: Number(item.committedGpus),
      hourlyMicroUsd: Number(item.hourlyMicroUsd),
      idleGpuSeconds: Number(item.idleGpuSeconds),
      idleMicroUsd: Number(item.idleMicroUsd),
    }));
  }

  private key(id: string) {
    return { pk: COMMITMENTS_PARTITION, sk: commitmentKey(id) };
  }
}
