import type { SQSClient } from '@aws-sdk/client-sqs';
import { subscribeQueueToTopic, type TopicMessage } from './topic-subscription';

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
  const subscription = await subscribeQueueToTopic(sqs, topicArn, queueName);
  let running = true;
  const loop = (async () => {
    while (running) {
      try {
        for (const alert of await subscription.receive(1)) print(formatAlert(alert));
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

function formatAlert(alert: TopicMessage): string {
  const attributes = Object.entries(alert.attributes)
    .map(([name, value]) => `${name}=${value}`)
    .join(' ');
  return [`\n📣 BUDGET ALERT: ${alert.subject}`, `   [${attributes}]`, alert.body].join('\n');
}
