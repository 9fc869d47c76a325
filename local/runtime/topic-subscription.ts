import { SNSClient, SubscribeCommand } from '@aws-sdk/client-sns';
import {
  CreateQueueCommand,
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';

/** A topic's message as an SQS subscriber receives it (the SNS envelope, raw delivery off). */
export interface TopicMessage {
  readonly subject: string;
  readonly body: string;
  readonly attributes: Record<string, string>;
  readonly attributeTypes: Record<string, string>;
}

interface SnsEnvelope {
  readonly Subject?: string;
  readonly Message?: string;
  readonly MessageAttributes?: Record<string, { Type: string; Value: string }>;
}

function fromEnvelope(body: string | undefined): TopicMessage {
  const envelope = JSON.parse(body ?? '{}') as SnsEnvelope;
  const attributes = Object.entries(envelope.MessageAttributes ?? {});
  return {
    subject: envelope.Subject ?? '',
    body: envelope.Message ?? '',
    attributes: Object.fromEntries(attributes.map(([name, value]) => [name, value.Value])),
    attributeTypes: Object.fromEntries(attributes.map(([name, value]) => [name, value.Type])),
  };
}

/**
 * A queue subscribed to an SNS topic (SNS → SQS, as an AWS subscriber would be),
 * optionally through a filter policy on message attributes.
 */
export async function subscribeQueueToTopic(
  sqs: SQSClient,
  topicArn: string,
  queueName: string,
  filterPolicy?: Record<string, unknown>,
) {
  const queueUrl = (await sqs.send(new CreateQueueCommand({ QueueName: queueName }))).QueueUrl ?? '';
  const { Attributes } = await sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['QueueArn'] }),
  );
  const sns = new SNSClient({});
  await sns.send(
    new SubscribeCommand({
      TopicArn: topicArn,
      Protocol: 'sqs',
      Endpoint: Attributes?.QueueArn,
      Attributes: filterPolicy ? { FilterPolicy: JSON.stringify(filterPolicy) } : undefined,
    }),
  );
  sns.destroy();
  return {
    /** One receive (up to ten messages, waiting up to `waitSeconds`); what is read is deleted. */
    async receive(waitSeconds: number): Promise<TopicMessage[]> {
      const received = await sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: queueUrl,
          MaxNumberOfMessages: 10,
          WaitTimeSeconds: waitSeconds,
        }),
      );
      const messages = received.Messages ?? [];
      if (messages.length > 0) {
        await sqs.send(
          new DeleteMessageBatchCommand({
            QueueUrl: queueUrl,
            Entries: messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle ?? '' })),
          }),
        );
      }
      return messages.map((message) => fromEnvelope(message.Body));
    },
  };
}
