import type { ScheduledEvent } from 'aws-lambda';
import { nonEmpty, readConfig } from '../../shared/config';
import { logger, metrics, observed } from '../../shared/lambda/observability';
import { createStores, storeConfig } from '../../shared/lambda/stores';
import { meterOpenInstances } from '../../shared/usecases/metering';

const config = readConfig({ ...storeConfig, AWS_REGION: nonEmpty });
const stores = createStores(config);

/** Every minute: charge each open instance up to the tick's scheduled time. */
export const handler = observed(async (event: ScheduledEvent) => {
  const summary = await meterOpenInstances(stores, Date.parse(event.time));
  logger.info('Metering tick', { time: event.time, ...summary });
  metrics.addMetric('InstancesMetered', 'Count', summary.charged);
  metrics.addMetric('MeteredMicroUsd', 'Count', summary.microUsd);
  metrics.addMetric('RunningLeases', 'Count', summary.runningLeases);
  // How far behind the clock the bills are: late or slow ticks show here, missing ticks as no data.
  metrics.addMetric('MeteringLag', 'Seconds', Math.max(0, Date.now() - Date.parse(event.time)) / 1000);
  for (const [mode, gpus] of Object.entries(summary.gpusByMode)) {
    const fleet = metrics.singleMetric();
    fleet.addDimensions({ mode, region: config.AWS_REGION });
    fleet.addMetric('RunningGpus', 'Count', gpus);
  }
  return summary;
});
