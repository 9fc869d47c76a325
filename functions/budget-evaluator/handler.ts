import { logger, metrics, observed } from '../../shared/lambda/observability';
import { buildPorts } from '../../shared/lambda/port-factory';
import { METRIC_NAMES } from '../../shared/metric-names';
import { evaluateBudgets } from '../../shared/usecases/budgets/evaluate-budgets';
import * as z from '../../shared/zod';
import { budgetEvaluatorWiring } from './wiring';

const deps = buildPorts(budgetEvaluatorWiring);

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
  metrics.addMetric(METRIC_NAMES.budgetAlertsSent, 'Count', summary.alertsSent);
  metrics.addMetric(METRIC_NAMES.budgetActionsTaken, 'Count', summary.actionsTaken);
  return summary;
});
