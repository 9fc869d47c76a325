import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { IdempotencyConfig, makeIdempotent } from '@aws-lambda-powertools/idempotency';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { logger, metrics, observed } from '../../shared/lambda/observability';
import { buildPorts } from '../../shared/lambda/port-factory';
import { parseSqsBody } from '../../shared/lambda/sqs-body';
import { type LeaseCommand, leaseCommandSchema } from '../../shared/ports/lease-commands';
import { runLeaseCommand } from '../../shared/usecases/lease-commands';
import { leaseWorkerWiring } from './wiring';

const { idempotency: persistenceStore, ...controlPlane } = buildPorts(leaseWorkerWiring);

const idempotency = new IdempotencyConfig({
  // The command itself is the key, so a re-sent command (not only a re-delivered
  // message) waits for or reuses the first run instead of racing it.
  // A decide command's instant makes each of the schedule's looks a command of its own.
  eventKeyJmesPath: '[type, tenantId, leaseId, instanceId, atMs]',
  expiresAfterSeconds: 3600,
});

const runCommand = makeIdempotent(
  async (command: LeaseCommand) => {
    const { outcome, metric } = await runLeaseCommand(controlPlane, command);
    logger.info('Lease command done', { ...command, outcome });
    metrics.addMetric(metric, 'Count', 1);
    return { outcome };
  },
  {
    persistenceStore,
    config: idempotency,
  },
);

const processor = new BatchProcessor(EventType.SQS);

/** A malformed command can never succeed: it is logged and dropped, not retried into the DLQ. */
async function handleRecord(record: SQSRecord): Promise<void> {
  const parsed = leaseCommandSchema.safeParse(parseSqsBody(record.body));
  if (!parsed.success) {
    logger.error('Dropping malformed lease command', {
      messageId: record.messageId,
      issues: parsed.error.issues,
    });
    return;
  }
  await runCommand(parsed.data);
}

/**
 * A batch's commands run side by side: ten provisions in one batch take about
 * as long as the slowest, not the sum of all ten (the tenth lease of a burst
 * no longer waits for nine launches and task starts). Commands of one lease
 * in a batch are safe together, as across invocations: each step is a
 * conditional write, and a copy of a command in progress is retried.
 */
export const handler = observed(async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
  idempotency.registerLambdaContext(context);
  return processPartialResponse(event, handleRecord, processor, { context, processInParallel: true });
});
