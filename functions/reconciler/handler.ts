import { readConfig } from '../../shared/config';
import { controlPlaneConfig, createControlPlane } from '../../shared/lambda/control-plane';
import { logger, metrics, observed } from '../../shared/lambda/observability';
import { reconcileFleet } from '../../shared/usecases/reconcile-fleet';

const config = readConfig(controlPlaneConfig);
const { controlPlane } = createControlPlane(config);

/** Every five minutes: EC2 (by tag) against the table, so no GPU is paid for unseen. */
export const handler = observed(async () => {
  const summary = await reconcileFleet(controlPlane);
  if (summary.terminated > 0) logger.warn('Terminated orphan GPU instances', { ...summary });
  metrics.addMetric('OrphansTerminated', 'Count', summary.terminated);
  metrics.addMetric('InstancesAdopted', 'Count', summary.adopted);
  return summary;
});
