import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { ec2EventSchema } from '../../shared/domain/ec2-events';
import { logger, metrics, observed } from '../../shared/lambda/observability';
import { buildPorts } from '../../shared/lambda/port-factory';
import { parseSqsBody } from '../../shared/lambda/sqs-body';
import { ec2EventMetric } from '../../shared/metric-names';
import { handleEc2Event } from '../../shared/usecases/interruptions';
import { interruptionHandlerWiring } from './wiring';

const controlPlane = buildPorts(interruptionHandlerWiring);
const processor = new BatchProcessor(EventType.SQS);

/** One EC2 event per message, as the EventBridge rule puts it; anything else is logged and dropped. */
async function handleRecord(record: SQSRecord): Promise<void> {
  const parsed = ec2EventSchema.safeParse(parseSqsBody(record.body));
  if (!parsed.success) {
    logger.error('Dropping a message that is not an EC2 instance event', {
      messageId: record.messageId,
      issues: parsed.error.issues,
    });
    return;
  }
  const outcome = await handleEc2Event(controlPlane, parsed.data);
  logger.info('EC2 event handled', {
    detailType: parsed.data['detail-type'],
    instanceId: parsed.data.detail['instance-id'],
    outcome,
  });
  metrics.addMetric(ec2EventMetric(outcome), 'Count', 1);
}

/** Spot interruption warnings, rebalance recommendations and state changes, from every GPU region. */
export const handler = observed(
  async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> =>
    processPartialResponse(event, handleRecord, processor, { context }),
);
