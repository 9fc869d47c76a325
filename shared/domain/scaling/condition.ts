import { type Datapoint, formatMetricValue, GPU_METRICS, type MetricSeries } from './metrics';
import type { Comparison, ScalingCondition } from './policy';

export interface ConditionResult {
  readonly condition: ScalingCondition;
  readonly met: boolean;
  /** The datapoints judged (the condition's window), oldest first; missing ones are absent. */
  readonly values: readonly number[];
  /** e.g. `gpuUtilization > 80% for 3 datapoints (81%, 90.2%, 85%)`. */
  readonly description: string;
}

const COMPARE: Record<Comparison, (value: number, threshold: number) => boolean> = {
  '>': (v, t) => v > t,
  '>=': (v, t) => v >= t,
  '<': (v, t) => v < t,
  '<=': (v, t) => v <= t,
};

/** The key of the fleet series a condition reads: equal keys read the same series. */
export function seriesKey(condition: ScalingCondition): string {
  if (condition.metric !== 'custom') return `${condition.metric}:${condition.statistic}`;
  const dimensions = Object.entries(condition.dimensions)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, value]) => `${name}=${value}`)
    .join(',');
  return `custom:${condition.namespace}:${condition.name}:${dimensions}:${condition.statistic}`;
}

/** e.g. `gpuUtilization`, `gpuTemperature (Maximum)` or `MyApp/QueueDepth Sum`. */
export function conditionLabel(condition: ScalingCondition): string {
  if (condition.metric === 'custom') return `${condition.namespace}/${condition.name} ${condition.statistic}`;
  return condition.statistic === 'Average'
    ? condition.metric
    : `${condition.metric} (${condition.statistic})`;
}

function unitOf(condition: ScalingCondition): string {
  return condition.metric === 'custom' ? '' : GPU_METRICS[condition.metric].unit;
}

/**
 * N of M: the condition holds when at least `sustainedFor` of the `outOf`
 * periods ending at the newest datapoint breach. Datapoints are stamped at the
 * start of their period, as CloudWatch does; the newest may have ended up to
 * one period before now, to allow for publishing delay. A fleet that stopped
 * reporting has no recent datapoint and never acts; a missing datapoint in the
 * window never counts as a breach (silence is not "0% busy").
 */
export function evaluateCondition(
  condition: ScalingCondition,
  metrics: MetricSeries,
  nowMs: number,
  periodSeconds: number,
): ConditionResult {
  const periodMs = periodSeconds * 1000;
  const known = (metrics[seriesKey(condition)] ?? [])
    .filter((d) => d.timestampMs <= nowMs)
    .sort((a, b) => a.timestampMs - b.timestampMs);
  const newest = known.at(-1);
  if (newest === undefined || newest.timestampMs < nowMs - 2 * periodMs) {
    return { condition, met: false, values: [], description: describe(condition, [], 'no recent datapoint') };
  }
  const windowStartMs = newest.timestampMs - (condition.outOf - 1) * periodMs;
  const window: Datapoint[] = known.filter((d) => d.timestampMs >= windowStartMs);
  const values = window.map((d) => d.value);
  const compare = COMPARE[condition.comparison];
  const breaching = values.filter((value) => compare(value, condition.threshold)).length;
  const missing = condition.outOf - values.length;
  return {
    condition,
    met: breaching >= condition.sustainedFor,
    values,
    description: describe(condition, values, missing > 0 ? `${missing} of ${condition.outOf} missing` : ''),
  };
}

function describe(condition: ScalingCondition, values: readonly number[], note: string): string {
  const { comparison, threshold, sustainedFor, outOf } = condition;
  const unit = unitOf(condition);
  const span = sustainedFor === outOf ? `for ${sustainedFor}` : `on ${sustainedFor} of ${outOf}`;
  const rule = `${conditionLabel(condition)} ${comparison} ${formatMetricValue(unit, threshold)} ${span} datapoints`;
  const shown = values.map((v) => formatMetricValue(unit, v)).join(', ');
  return `${rule} (${[shown, note].filter(Boolean).join('; ')})`;
}
