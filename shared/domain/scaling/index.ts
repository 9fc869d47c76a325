export { decideScaling, type ScalingAction, type ScalingDecision, type ScalingInput } from './decide';
export { type Datapoint, type MetricSeries, SCALING_METRIC_NAMES, type ScalingMetric } from './metrics';
export {
  DEFAULT_SCALE_IN,
  DEFAULT_SCALE_OUT,
  InvalidScalingPolicyError,
  type PolicyIssue,
  parseScalingPolicy,
  type ScalingCondition,
  type ScalingPolicy,
  type ScalingPolicyInput,
  type ScalingRule,
} from './policy';
