import type { ScheduledEvent } from 'aws-lambda';
import { readConfig } from '../../shared/config';
import { logger, metrics, observed } from '../../shared/lambda/observability';
import { createStores, storeConfig } from '../../shared/lambda/stores';
import { meterOpenInstances } from '../../shared/usecases/metering';
import { recordIdleReserved } from '../../shared/usecases/reserved-slots';

const config = readConfig(storeConfig);
const stores = createStores(config);

/** Every minute: charge each open instance up to the tick's scheduled time. */
export const handler = observed(async (event: ScheduledEvent) => {
  const summary = await meterOpenInstances(stores, Date.parse(event.time));
  logger.info('Metering tick', { time: event.time, ...summary });
  metrics.addMetric('InstancesMetered', 'Count', summary.charged);
  metrics.addMetric('MeteredMicroUsd', 'Count', summary.microUsd);
  // Reserved GPUs nobody used in this window: paid for all the same, recorded for the audit.
  const idle = await recordIdleReserved(stores, Date.parse(event.time));
  metrics.addMetric('IdleReservedGpuSeconds', 'Count', idle.idleGpuSeconds);
  return { ...summary, idle };
});
