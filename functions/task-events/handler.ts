import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { commandInvocationEventSchema } from '../../shared/domain/tasks/command-events';
import { logger, metrics, observed } from '../../shared/lambda/observability';
import { buildPorts } from '../../shared/lambda/port-factory';
import { parseSqsBody } from '../../shared/lambda/sqs-body';
import { handleCommandEvent } from '../../shared/usecases/task-command-events';
import { taskEventsWiring } from './wiring';

const controlPlane = buildPorts(taskEventsWiring);
const processor = new BatchProcessor(EventType.SQS);

/** One SSM invocation status change per message, as the rule puts it; anything else is logged and dropped. */
async function handleRecord(record: SQSRecord): Promise<void> {
  const parsed = commandInvocationEventSchema.safeParse(parseSqsBody(record.body));
  if (!parsed.success) {
    logger.error('Dropping a message that is not an SSM command invocation event', {
      messageId: record.messageId,
      issues: parsed.error.issues,
    });
    return;
  }
  const outcome = await handleCommandEvent(controlPlane, parsed.data);
  logger.info('Task event handled', { ...parsed.data.detail, outcome });
  metrics.addMetric(`task-event-${outcome}`, 'Count', 1);
}

/**
 * Tasks' starts and ends, from SSM's status-change events (no polling per
 * instance). A batch's records are handled side by side: when many tasks end
 * at once, the last of a batch of ten does not wait for nine releases before
 * its own. Two events of one lease in a batch are safe together: every step
 * of a task is a conditional write on its revision, retried on a conflict.
 */
export const handler = observed(
  async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> =>
    processPartialResponse(event, handleRecord, processor, { context, processInParallel: true }),
);
