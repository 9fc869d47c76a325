import { DynamoDbBudgetRepository } from '../../shared/adapters/dynamodb-budget-repository';
import { EventBridgePublisher } from '../../shared/adapters/eventbridge-publisher';
import { SnsBudgetNotifier } from '../../shared/adapters/sns-budget-notifier';
import { SqsLeaseCommandQueue } from '../../shared/adapters/sqs-lease-command-queue';
import { nonEmpty, readConfig } from '../../shared/config';
import { createEventBridgeClient, createSnsClient, createSqsClient } from '../../shared/lambda/clients';
import { logger, metrics, observed } from '../../shared/lambda/observability';
import { createStores, storeConfig } from '../../shared/lambda/stores';
import { evaluateBudgets } from '../../shared/usecases/budgets/evaluate-budgets';
import * as z from '../../shared/zod';

const config = readConfig({
  ...storeConfig,
  BUDGETS_TABLE_NAME: nonEmpty,
  BUDGET_ALERTS_TOPIC_ARN: nonEmpty,
  LEASE_COMMANDS_QUEUE_URL: nonEmpty,
  EVENT_BUS_NAME: nonEmpty,
});
const { documents, leases, spend } = createStores(config);
const deps = {
  leases,
  spend,
  budgets: new DynamoDbBudgetRepository(documents, config.BUDGETS_TABLE_NAME),
  notifier: new SnsBudgetNotifier(createSnsClient(), config.BUDGET_ALERTS_TOPIC_ARN),
  // stop-interruptible releases leases through the lease worker, like a tenant's DELETE.
  commands: new SqsLeaseCommandQueue(createSqsClient(), config.LEASE_COMMANDS_QUEUE_URL),
  events: new EventBridgePublisher(createEventBridgeClient(), config.EVENT_BUS_NAME),
  now: Date.now,
};

/**
 * Two triggers: the 5-minute schedule (a Scheduled Event, `time`) and the
 * metering function's on-success destination right after each metering run (a
 * destination record whose `requestPayload` is the metering tick). Either way
 * the round is judged at the scheduled instant, not the wall clock.
 */
const trigger = z.union([
  z.object({ requestPayload: z.object({ time: z.iso.datetime({ offset: true }) }) }),
  z.object({ time: z.iso.datetime({ offset: true }) }),
]);

export const handler = observed(async (event: unknown) => {
  const parsed = trigger.parse(event);
  const time = 'requestPayload' in parsed ? parsed.requestPayload.time : parsed.time;
  const summary = await evaluateBudgets(deps, Date.parse(time));
  logger.info('Budget evaluation', { time, ...summary });
  metrics.addMetric('BudgetsEvaluated', 'Count', summary.budgets);
  metrics.addMetric('BudgetAlertsSent', 'Count', summary.alertsSent);
  metrics.addMetric('BudgetActionsTaken', 'Count', summary.actionsTaken);
  return summary;
});
