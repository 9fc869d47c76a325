import { METRIC_NAMES } from '../metric-names';
import type { ControlPlaneMetrics } from '../ports/control-plane-metrics';
import { metrics } from './observability';

/**
 * Powertools metrics for the dashboard. Metrics with their own dimensions go out
 * as single metrics, so the function's other metrics keep the default dimension set.
 */
export const powertoolsControlPlaneMetrics: ControlPlaneMetrics = {
  leaseRunning(waitedMs) {
    metrics.addMetric(METRIC_NAMES.timeToRunning, 'Milliseconds', waitedMs);
  },
  launchFailed(mode, code) {
    const failure = metrics.singleMetric();
    failure.addDimensions({ mode, code });
    failure.addMetric(METRIC_NAMES.launchFailures, 'Count', 1);
  },
  leasesRepaired(repair, count) {
    const repaired = metrics.singleMetric();
    repaired.addDimensions({ repair });
    repaired.addMetric(METRIC_NAMES.leasesRepaired, 'Count', count);
  },
};
