import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DescribeInstancesCommand, EC2Client, type Instance } from '@aws-sdk/client-ec2';
import {
  GetQueueAttributesCommand,
  PurgeQueueCommand,
  ReceiveMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';

/** Direct SDK access to the emulators, for tests to look behind the handlers. */
export function awsProbe() {
  const documents = DynamoDBDocumentClient.from(new DynamoDBClient({}));
  const ec2 = new EC2Client({});
  const sqs = new SQSClient({ useQueueUrlAsEndpoint: false });
  return {
    ec2,
    sqs,
    async scan(tableName: string): Promise<Record<string, unknown>[]> {
      const result = await documents.send(new ScanCommand({ TableName: tableName, ConsistentRead: true }));
      return result.Items ?? [];
    },
    async instancesTagged(key: string, value: string, states = ['pending', 'running']): Promise<Instance[]> {
      const result = await ec2.send(
        new DescribeInstancesCommand({
          Filters: [
            { Name: `tag:${key}`, Values: [value] },
            { Name: 'instance-state-name', Values: states },
          ],
        }),
      );
      return (result.Reservations ?? []).flatMap((reservation) => reservation.Instances ?? []);
    },
    async receiveAll(queueUrl: string): Promise<string[]> {
      const bodies: string[] = [];
      for (;;) {
        const result = await sqs.send(
          new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }),
        );
        if (!result.Messages?.length) return bodies;
        bodies.push(...result.Messages.map((m) => m.Body ?? ''));
      }
    },
    /** Messages sent with a delay that has not run out yet. */
    async delayedCount(queueUrl: string): Promise<number> {
      const result = await sqs.send(
        new GetQueueAttributesCommand({
          QueueUrl: queueUrl,
          AttributeNames: ['ApproximateNumberOfMessagesDelayed'],
        }),
      );
      return Number(result.Attributes?.ApproximateNumberOfMessagesDelayed ?? 0);
    },
    async purge(queueUrl: string): Promise<void> {
      await sqs.send(new PurgeQueueCommand({ QueueUrl: queueUrl }));
    },
  };
}
