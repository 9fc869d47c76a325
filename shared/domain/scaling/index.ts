export { conditionLabel, seriesKey } from './condition';
export {
  cooldownLeftMs,
  decideScaling,
  type LastScalingAction,
  type Observation,
  type ScalingAction,
  type ScalingDecision,
  type ScalingInput,
} from './decide';
export { combineFleetSeries, memoryUsedPercent } from './fleet';
export {
  desiredAfterUpdate,
  GROUP_NAME_PATTERN,
  type GroupMember,
  isBooting,
  isLive,
  isQueued,
  launchModes,
  MAX_GROUP_SIZE,
  policyOf,
  type ScalingGroupSpec,
  type ScalingGroupSpecInput,
  scaleInOrder,
  scalingGroupSpecSchema,
} from './group';
export {
  type Datapoint,
  GPU_METRIC_NAMES,
  GPU_METRICS,
  type GpuMetric,
  type GpuStatistic,
  type MetricSeries,
} from './metrics';
export {
  foreignNamespaces,
  type NamespaceIssue,
  ownsNamespace,
  tenantMetricNamespacePrefix,
} from './namespace';
export {
  type CustomCondition,
  DEFAULT_SCALE_IN,
  DEFAULT_SCALE_OUT,
  type GpuCondition,
  InvalidScalingPolicyError,
  MAX_CONDITIONS,
  type PolicyIssue,
  parseScalingPolicy,
  type ScalingCondition,
  type ScalingPolicy,
  type ScalingPolicyInput,
  type ScalingRule,
} from './policy';
export { sameWaiting, type WaitingMember, waitingMembers, withWaiting } from './waiting';
