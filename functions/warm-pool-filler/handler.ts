import { logger, metrics, observed } from '../../shared/lambda/observability';
import { buildPorts } from '../../shared/lambda/port-factory';
import { fillWarmPools } from '../../shared/usecases/fill-warm-pools';
import { warmPoolFillerWiring } from './wiring';

const deps = buildPorts(warmPoolFillerWiring);

/**
 * Two triggers, one job: the schedule (every minute) and the fill queue (a
 * lease just took a machine). Either way every pool is brought to size, so a
 * duplicate or late message does nothing more than the next run would.
 */
export const handler = observed(async () => {
  const summary = await fillWarmPools(deps);
  if (summary.refused > 0) logger.warn('Warm machines EC2 would not launch', { ...summary });
  metrics.addMetric('WarmMachinesLaunched', 'Count', summary.launched);
  metrics.addMetric('WarmMachinesReplaced', 'Count', summary.replaced);
  metrics.addMetric('WarmMachinesReady', 'Count', summary.ready);
  return summary;
});
