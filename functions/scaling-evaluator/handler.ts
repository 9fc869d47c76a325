import type { ScheduledEvent } from 'aws-lambda';
import { logger, metrics, observed } from '../../shared/lambda/observability';
import { buildPorts } from '../../shared/lambda/port-factory';
import { recordScalingEvaluation } from '../../shared/lambda/scaling-evaluation-metrics';
import { evaluateScalingGroups } from '../../shared/usecases/evaluate-scaling-groups';
import { scalingEvaluatorWiring } from './wiring';

const deps = buildPorts(scalingEvaluatorWiring);

export class ScalingEvaluationError extends Error {
  constructor(readonly failed: number) {
    super(`${failed} scaling group(s) could not be evaluated; the others were`);
    this.name = 'ScalingEvaluationError';
  }
}

/**
 * Every minute: every scaling group against its GPU metrics, at the schedule's
 * instant. A group that fails is logged and the others still run; the
 * invocation then fails, so the errors alarm tells operators.
 */
export const handler = observed(async (event: ScheduledEvent) => {
  const summary = await evaluateScalingGroups(deps, Date.parse(event.time));
  for (const failure of summary.failures) {
    logger.error('Scaling group evaluation failed', {
      tenantId: failure.tenantId,
      group: failure.name,
      error: failure.error as Error,
    });
  }
  const { failures, ...counts } = summary;
  logger.info('Scaling evaluation', { time: event.time, ...counts });
  recordScalingEvaluation(metrics, summary);
  if (failures.length > 0) throw new ScalingEvaluationError(failures.length);
  return counts;
});
