import { SNSClient, SubscribeCommand } from '@aws-sdk/client-sns';
import {
  CreateQueueCommand,
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { BudgetNotifier } from '../../shared/ports/budgets';

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

/**
 * The budget evaluator's dependencies over the emulators, as its handler wires
 * them, with the notifier given (a test may wrap the SNS one to inject faults).
 */
export async function budgetDepsOf(env: Record<string, string>, notifier?: BudgetNotifier) {
  const { storesOf } = await import('./function-env');
  const { DynamoDbBudgetRepository } = await import('../../shared/adapters/dynamodb-budget-repository');
  const { SnsBudgetNotifier } = await import('../../shared/adapters/sns-budget-notifier');
  const { SqsLeaseCommandQueue } = await import('../../shared/adapters/sqs-lease-command-queue');
  const { EventBridgePublisher } = await import('../../shared/adapters/eventbridge-publisher');
  const { EventBridgeClient } = await import('@aws-sdk/client-eventbridge');
  const stores = await storesOf(env);
  return {
    ...stores,
    budgets: new DynamoDbBudgetRepository(stores.documents, env.BUDGETS_TABLE_NAME ?? ''),
    notifier: notifier ?? new SnsBudgetNotifier(new SNSClient({}), env.BUDGET_ALERTS_TOPIC_ARN ?? ''),
    commands: new SqsLeaseCommandQueue(
      new SQSClient({ useQueueUrlAsEndpoint: false }),
      env.LEASE_COMMANDS_QUEUE_URL ?? '',
    ),
    events: new EventBridgePublisher(new EventBridgeClient({}), env.EVENT_BUS_NAME ?? ''),
    now: Date.now,
  };
}
