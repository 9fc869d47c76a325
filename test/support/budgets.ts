import { SNSClient } from '@aws-sdk/client-sns';
import { SQSClient } from '@aws-sdk/client-sqs';
import { subscribeQueueToTopic, type TopicMessage } from '../../local/runtime/topic-subscription';
import type { BudgetNotifier } from '../../shared/ports/budgets';

/** A budget alert as an SQS subscriber of the topic receives it. */
export type ReceivedAlert = TopicMessage;

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
  const subscription = await subscribeQueueToTopic(sqs, topicArn, queueName, filterPolicy);
  return {
    async drain() {
      const alerts: ReceivedAlert[] = [];
      for (;;) {
        const received = await subscription.receive(0);
        if (received.length === 0) return alerts;
        alerts.push(...received);
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
