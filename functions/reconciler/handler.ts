import { logger, metrics, observed } from '../../shared/lambda/observability';
import { buildPorts } from '../../shared/lambda/port-factory';
import { METRIC_NAMES } from '../../shared/metric-names';
import { reconcileFleet } from '../../shared/usecases/reconcile-fleet';
import { refreshSpotPrices } from '../../shared/usecases/spot-price-refresh';
import { reconcilerWiring } from './wiring';

const controlPlane = buildPorts(reconcilerWiring);

/**
 * Every five minutes: EC2 (by tag) against the table, so no GPU is paid for
 * unseen and no bill outlives its instance; then the spot prices of the pools
 * spot instances run in, so spot is billed at the price in force.
 */
export const handler = observed(async () => {
  const summary = await reconcileFleet(controlPlane);
  if (summary.terminated > 0) logger.warn('Terminated orphan GPU instances', { ...summary });
  if (summary.ended > 0) logger.warn('Closed the bills of instances that vanished', { ...summary });
  if (summary.retired > 0) logger.warn('Ended warned instances no replace command ended', { ...summary });
  // Each repair on its own line, so an operator finds a lease's by its id.
  for (const repaired of summary.repairLog.repaired)
    logger.warn('Repaired a lease left behind', { ...repaired });
  for (const failure of summary.repairLog.failures)
    logger.error('A lease repair failed; next run tries again', { ...failure });
  metrics.addMetric(METRIC_NAMES.orphansTerminated, 'Count', summary.terminated);
  metrics.addMetric('InstancesAdopted', 'Count', summary.adopted);
  metrics.addMetric(METRIC_NAMES.vanishedInstancesEnded, 'Count', summary.ended);
  metrics.addMetric('WarnedInstancesEnded', 'Count', summary.retired);
  const spotPriceChanges = await refreshSpotPrices(controlPlane);
  metrics.addMetric(METRIC_NAMES.spotPriceChangesRecorded, 'Count', spotPriceChanges);
  return { ...summary, spotPriceChanges };
});
