import { SNSClient, SubscribeCommand } from '@aws-sdk/client-sns';
import {
  CreateQueueCommand,
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';

/** A budget alert as an SQS subscriber of the topic receives it (SNS envelope, raw delivery off). */
export interface ReceivedAlert {
  readonly subject: string;
  readonly body: string;
  readonly attributes: Record<string, string>;
  readonly attributeTypes: Record<string, string>;
}

/**
 * Subscribes a fresh fauxqs queue to the budget alerts topic, as a tenant's
 * integration would, and returns a reader that drains what has arrived.
 * `filterPolicy` is an SNS subscription filter policy on message attributes.
 */
export async function subscribeToAlerts(
  topicArn: string,
  filterPolicy?: Record<string, unknown>,
): Promise<{ drain: () => Promise<ReceivedAlert[]> }> {
  const sqs = new SQSClient({ useQueueUrlAsEndpoint: false });
  const queueName = `alerts-${Math.random().toString(36).slice(2)}`;
  const queueUrl = (await sqs.send(new CreateQueueCommand({ QueueName: queueName }))).QueueUrl ?? '';
  const { Attributes } = await sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['QueueArn'] }),
  );
  await new SNSClient({}).send(
    new SubscribeCommand({
      TopicArn: topicArn,
      Protocol: 'sqs',
      Endpoint: Attributes?.QueueArn,
      Attributes: filterPolicy ? { FilterPolicy: JSON.stringify(filterPolicy) } : undefined,
    }),
  );
  return {
    async drain() {
      const alerts: ReceivedAlert[] = [];
      for (;;) {
        const result = await sqs.send(
          new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }),
        );
        const messages = result.Messages ?? [];
        if (messages.length === 0) return alerts;
        for (const message of messages) {
          const envelope = JSON.parse(message.Body ?? '{}') as {
            Subject?: string;
            Message?: string;
            MessageAttributes?: Record<string, { Type: string; Value: string }>;
          };
          const attributes = Object.entries(envelope.MessageAttributes ?? {});
          alerts.push({
            subject: envelope.Subject ?? '',
            body: envelope.Message ?? '',
            attributes: Object.fromEntries(attributes.map(([name, value]) => [name, value.Value])),
            attributeTypes: Object.fromEntries(attributes.map(([name, value]) => [name, value.Type])),
          });
        }
        await sqs.send(
          new DeleteMessageBatchCommand({
            QueueUrl: queueUrl,
            Entries: messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle ?? '' })),
          }),
        );
      }
    },
  };
}
