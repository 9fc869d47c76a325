import { SNSClient, SubscribeCommand } from '@aws-sdk/client-sns';
import {
  CreateQueueCommand,
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';

/** The SNS envelope an SQS subscriber receives (raw delivery off). */
interface SnsEnvelope {
  readonly Subject?: string;
  readonly Message?: string;
  readonly MessageAttributes?: Record<string, { Type: string; Value: string }>;
}

export interface AlertFeed {
  stop(): Promise<void>;
}

/**
 * What a tenant's e-mail or chat subscription would show: subscribes a queue to
 * the budget alerts topic (SNS → SQS in fauxqs, as an AWS subscriber would) and
 * prints every alert that arrives, with its filterable attributes.
 */
export async function startAlertFeed(
  sqs: SQSClient,
  topicArn: string,
  queueName: string,
  print: (text: string) => void,
): Promise<AlertFeed> {
  const queue = await sqs.send(new CreateQueueCommand({ QueueName: queueName }));
  const queueUrl = queue.QueueUrl ?? '';
  const attributes = await sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['QueueArn'] }),
  );
  const sns = new SNSClient({});
  await sns.send(
    new SubscribeCommand({ TopicArn: topicArn, Protocol: 'sqs', Endpoint: attributes.Attributes?.QueueArn }),
  );
  sns.destroy();
  let running = true;
  const loop = (async () => {
    while (running) {
      try {
        const received = await sqs.send(
          new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
        );
        const messages = received.Messages ?? [];
        for (const message of messages) print(formatAlert(JSON.parse(message.Body ?? '{}') as SnsEnvelope));
        if (messages.length > 0) {
          await sqs.send(
            new DeleteMessageBatchCommand({
              QueueUrl: queueUrl,
              Entries: messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle ?? '' })),
            }),
          );
        }
      } catch (error) {
        if (running) print(`budget alert feed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
    },
  };
}

function formatAlert(envelope: SnsEnvelope): string {
  const attributes = Object.entries(envelope.MessageAttributes ?? {})
    .map(([name, value]) => `${name}=${value.Value}`)
    .join(' ');
  return [`\n📣 BUDGET ALERT: ${envelope.Subject ?? ''}`, `   [${attributes}]`, envelope.Message ?? ''].join(
    '\n',
  );
}
