import { CloudWatchMetricReader } from '../../shared/adapters/cloudwatch-metric-reader';
import { DynamoDbAuditStore, DynamoDbChargedTenants } from '../../shared/adapters/dynamodb-audit-store';
import { EventBridgePublisher } from '../../shared/adapters/eventbridge-publisher';
import { SnsBudgetNotifier } from '../../shared/adapters/sns-budget-notifier';
import { SpotTraceFiles } from '../../shared/adapters/spot-trace-files';
import { priceCatalog } from '../../shared/catalog';
import { nonEmpty, readConfig } from '../../shared/config';
import { monthBefore } from '../../shared/domain/audit/audit-month';
import { spotDataConfig } from '../../shared/lambda/audit-config';
import {
  createCloudWatchClient,
  createEventBridgeClient,
  createSnsClient,
} from '../../shared/lambda/clients';
import { logger, metrics, observed } from '../../shared/lambda/observability';
import { createStores, storeConfig } from '../../shared/lambda/stores';
import { announceMonthlyAudits } from '../../shared/usecases/audit/announce-audits';
import * as z from '../../shared/zod';

const config = readConfig({
  AWS_REGION: nonEmpty,
  ...storeConfig,
  AUDITS_TABLE_NAME: nonEmpty,
  BUDGET_ALERTS_TOPIC_ARN: nonEmpty,
  EVENT_BUS_NAME: nonEmpty,
  ...spotDataConfig,
});
const { documents, leases, spend, commitments } = createStores(config);
const deps = {
  leases,
  spend,
  commitments,
  metrics: new CloudWatchMetricReader(createCloudWatchClient()),
  audits: new DynamoDbAuditStore(documents, config.AUDITS_TABLE_NAME),
  tenants: new DynamoDbChargedTenants(documents, config.SPEND_TABLE_NAME),
  spotTraces: new SpotTraceFiles(config.SPOT_DATA_DIR),
  notifier: new SnsBudgetNotifier(createSnsClient(), config.BUDGET_ALERTS_TOPIC_ARN),
  events: new EventBridgePublisher(createEventBridgeClient(), config.EVENT_BUS_NAME),
  catalog: priceCatalog,
  region: config.AWS_REGION,
  now: Date.now,
};

/** The schedule's Scheduled Event: `time` (the scheduled instant) names the month before as the one to audit. */
const trigger = z.object({ time: z.iso.datetime({ offset: true }) });

export const handler = observed(async (event: unknown) => {
  const atMs = Date.parse(trigger.parse(event).time);
  const summary = await announceMonthlyAudits(deps, monthBefore(atMs), atMs);
  logger.info('Monthly audits', { ...summary });
  metrics.addMetric('AuditsStored', 'Count', summary.stored);
  metrics.addMetric('AuditsAnnounced', 'Count', summary.announced);
  return summary;
});
