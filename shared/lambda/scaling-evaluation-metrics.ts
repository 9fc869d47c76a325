import { type Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { METRIC_NAMES } from '../metric-names';
import type { EvaluationSummary } from '../usecases/evaluate-scaling-groups';

/**
 * The scaling evaluator's Powertools metrics. `ScalingDecisions` carries a
 * `direction` dimension (the dashboard's "Scaling decisions" widget searches
 * `{gpurent,service,direction}`), so it goes out as single metrics and the
 * others keep the default dimension set. Every direction is sent each minute,
 * zeros included, so the widget draws a line rather than gaps.
 */
export function recordScalingEvaluation(metrics: Metrics, summary: EvaluationSummary): void {
  metrics.addMetric('ScalingGroupsEvaluated', MetricUnit.Count, summary.groups);
  metrics.addMetric('ScalingMembersLaunched', MetricUnit.Count, summary.launched);
  metrics.addMetric('ScalingMembersReleased', MetricUnit.Count, summary.released);
  metrics.addMetric(METRIC_NAMES.scalingGroupFailures, MetricUnit.Count, summary.failures.length);
  for (const [direction, count] of Object.entries(summary.decisions)) {
    const decisions = metrics.singleMetric();
    decisions.addDimensions({ direction });
    decisions.addMetric(METRIC_NAMES.scalingDecisions, MetricUnit.Count, count);
  }
}
