import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { GpuHealthMarks, UnhealthyGpuMark } from '../ports/scaling-groups';
import { queryAll } from './dynamodb-query-all';

/** One partition of the scaling-groups table holds the marks: few GPUs are unhealthy at once. */
const MARKS_PARTITION = 'GPU_HEALTH';
const markKey = (instanceId: string, gpuIndex: number) => ({
  pk: MARKS_PARTITION,
  sk: `GPU#${instanceId}#${gpuIndex}`,
});

export class DynamoDbGpuHealthMarks implements GpuHealthMarks {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async marked(): Promise<UnhealthyGpuMark[]> {
    const items = await queryAll(this.client, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': MARKS_PARTITION },
    });
    return items.map(({ pk: _pk, sk: _sk, ...mark }) => mark as unknown as UnhealthyGpuMark);
  }

  async mark(mark: UnhealthyGpuMark): Promise<boolean> {
    try {
      await this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...markKey(mark.instanceId, mark.gpuIndex), ...mark },
          // Two overlapping sweeps, or the same status twice: only the first write reports.
          ConditionExpression: 'attribute_not_exists(pk) OR #status <> :status',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':status': mark.status },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  async clear(instanceId: string, gpuIndex: number): Promise<void> {
    await this.client.send(
      new DeleteCommand({ TableName: this.tableName, Key: markKey(instanceId, gpuIndex) }),
    );
  }
}
