import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { WarmMachine, WarmMachineState } from '../domain/warm-pools/machine';
import type { WarmPool } from '../domain/warm-pools/pool';
import type { WarmPoolRepository } from '../ports/warm-pools';
import { WARM_MACHINE_PREFIX, WARM_POOLS_PARTITION, warmMachineKey, warmPoolKey } from './dynamodb-keys';
import { queryAll } from './dynamodb-query-all';

type Item = Record<string, unknown>;
type MachineRef = Pick<WarmMachine, 'pool' | 'instanceId'>;

const strip = ({ pk: _pk, sk: _sk, ...rest }: Item) => rest;

/**
 * Warm pools and machines in the leases table, in one partition of their own.
 * A machine's state only ever moves by a conditional write on the state it was
 * read in, so a claim and a replacement (or two claims) cannot both win.
 */
export class DynamoDbWarmPoolRepository implements WarmPoolRepository {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async putPool(pool: WarmPool): Promise<void> {
    await this.client.send(
      new PutCommand({ TableName: this.tableName, Item: { ...this.poolKey(pool.name), ...pool } }),
    );
  }

  async getPool(name: string): Promise<WarmPool | undefined> {
    const result = await this.client.send(
      new GetCommand({ TableName: this.tableName, Key: this.poolKey(name), ConsistentRead: true }),
    );
    return result.Item ? (strip(result.Item) as unknown as WarmPool) : undefined;
  }

  async listPools(): Promise<WarmPool[]> {
    return (await this.query(warmPoolKey(''))).map((item) => strip(item) as unknown as WarmPool);
  }

  async deletePool(name: string): Promise<boolean> {
    const result = await this.client.send(
      new DeleteCommand({ TableName: this.tableName, Key: this.poolKey(name), ReturnValues: 'ALL_OLD' }),
    );
    return result.Attributes !== undefined;
  }

  async listMachines(): Promise<WarmMachine[]> {
    return (await this.query(WARM_MACHINE_PREFIX)).map((item) => strip(item) as unknown as WarmMachine);
  }

  async addMachines(machines: readonly WarmMachine[]): Promise<void> {
    // A fill launches a handful of machines: one put each.
    await Promise.all(
      machines.map((machine) =>
        this.client.send(
          new PutCommand({ TableName: this.tableName, Item: { ...this.machineKey(machine), ...machine } }),
        ),
      ),
    );
  }

  changeState(
    machine: MachineRef,
    from: readonly WarmMachineState[],
    to: WarmMachineState,
    atMs: number,
  ): Promise<boolean> {
    return this.conditional(
      new UpdateCommand({
        TableName: this.tableName,
        Key: this.machineKey(machine),
        UpdateExpression: to === 'ready' ? 'SET #state = :to, readyAtMs = :at' : 'SET #state = :to',
        ConditionExpression: `#state IN (${from.map((_, i) => `:from${i}`).join(', ')})`,
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ':to': to,
          ...(to === 'ready' ? { ':at': atMs } : {}),
          ...Object.fromEntries(from.map((state, i) => [`:from${i}`, state])),
        },
      }),
    );
  }

  claim(machine: MachineRef, leaseId: string, atMs: number): Promise<boolean> {
    return this.conditional(
      new UpdateCommand({
        TableName: this.tableName,
        Key: this.machineKey(machine),
        UpdateExpression: 'SET #state = :claimed, claimedBy = :lease, claimedAtMs = :at',
        ConditionExpression: '#state = :ready',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ':claimed': 'claimed',
          ':ready': 'ready',
          ':lease': leaseId,
          ':at': atMs,
        },
      }),
    );
  }

  remove(machine: MachineRef, states: readonly WarmMachineState[]): Promise<boolean> {
    return this.conditional(
      new DeleteCommand({
        TableName: this.tableName,
        Key: this.machineKey(machine),
        ConditionExpression: `#state IN (${states.map((_, i) => `:s${i}`).join(', ')})`,
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: Object.fromEntries(states.map((state, i) => [`:s${i}`, state])),
      }),
    );
  }

  private async conditional(command: UpdateCommand | DeleteCommand): Promise<boolean> {
    try {
      await this.client.send(command as UpdateCommand);
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  private query(prefix: string): Promise<Item[]> {
    return queryAll(this.client, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': WARM_POOLS_PARTITION, ':prefix': prefix },
      ConsistentRead: true,
    });
  }

  private poolKey(name: string) {
    return { pk: WARM_POOLS_PARTITION, sk: warmPoolKey(name) };
  }

  private machineKey(machine: MachineRef) {
    return { pk: WARM_POOLS_PARTITION, sk: warmMachineKey(machine.pool, machine.instanceId) };
  }
}
