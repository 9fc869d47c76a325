import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { IdempotencyConfig, makeIdempotent } from '@aws-lambda-powertools/idempotency';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { logger, metrics, observed } from '../../shared/lambda/observability';
import { buildPorts } from '../../shared/lambda/port-factory';
import { parseSqsBody } from '../../shared/lambda/sqs-body';
import { type CommandOutcomes, leaseCommandMetric } from '../../shared/metric-names';
import { type LeaseCommand, leaseCommandSchema } from '../../shared/ports/lease-commands';
import { replaceInterrupted } from '../../shared/usecases/interruptions';
import { provisionLease } from '../../shared/usecases/provision-lease';
import { completeRelease, expireLease } from '../../shared/usecases/release-lease';
import { advanceTask, startTaskOnLease } from '../../shared/usecases/tasks';
import { leaseWorkerWiring } from './wiring';

const { idempotency: persistenceStore, ...controlPlane } = buildPorts(leaseWorkerWiring);

const idempotency = new IdempotencyConfig({
  // The command itself is the key, so a re-sent command (not only a re-delivered
  // message) waits for or reuses the first run instead of racing it.
  eventKeyJmesPath: '[type, tenantId, leaseId, instanceId]',
  expiresAfterSeconds: 3600,
});

const runCommand = makeIdempotent(
  async (command: LeaseCommand) => {
    const { outcome, metric } = await dispatch(command);
    logger.info('Lease command done', { ...command, outcome });
    metrics.addMetric(metric, 'Count', 1);
    return { outcome };
  },
  {
    persistenceStore,
    config: idempotency,
  },
);

const done = <Type extends LeaseCommand['type']>(type: Type, outcome: CommandOutcomes[Type]) => ({
  outcome,
  metric: leaseCommandMetric(type, outcome),
});

async function dispatch(command: LeaseCommand): Promise<{ outcome: string; metric: string }> {
  const { tenantId, leaseId } = command;
  switch (command.type) {
    // start: a lease admission let in after it waited; provisioned the same way.
    case 'provision':
    case 'start': {
      const outcome = await provisionLease(controlPlane, tenantId, leaseId);
      if (outcome === 'running') await startTaskOnLease(controlPlane, tenantId, leaseId);
      return done(command.type, outcome);
    }
    case 'release':
      // The task stops first (STOPPED), then the instances go.
      await advanceTask(controlPlane, tenantId, leaseId, { type: 'stop', atMs: controlPlane.now() });
      return done('release', await completeRelease(controlPlane, tenantId, leaseId));
    case 'replace': {
      const instanceId = command.instanceId ?? '';
      const outcome = await replaceInterrupted(controlPlane, tenantId, leaseId, instanceId);
      // Also on a redelivery (the lease already RUNNING again): both steps are idempotent.
      if (outcome === 'replaced' || outcome === 'not-interrupted') {
        // The old attempt ended with its instance; the next one runs on the replacement.
        await advanceTask(controlPlane, tenantId, leaseId, {
          type: 'instance-lost',
          instanceId,
          atMs: controlPlane.now(),
        });
        await startTaskOnLease(controlPlane, tenantId, leaseId);
      }
      return done('replace', outcome);
    }
    // From the lease's expiry schedule: released like a tenant's DELETE.
    case 'expire':
      return done('expire', await expireLease(controlPlane, tenantId, leaseId));
  }
}

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

export const handler = observed(async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
  idempotency.registerLambdaContext(context);
  return processPartialResponse(event, handleRecord, processor, { context });
});
