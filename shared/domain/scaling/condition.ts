import { type Datapoint, formatMetricValue } from './metrics';
import type { Comparison, ScalingCondition } from './policy';

export interface ConditionResult {
  readonly condition: ScalingCondition;
  readonly met: boolean;
  /** The datapoints judged, oldest first (fewer than `sustainedFor` when data is missing). */
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

/**
 * A condition holds when its last `sustainedFor` datapoints are consecutive
 * (one period apart), recent and all breach the threshold. Datapoints are stamped
 * at the start of their period, as CloudWatch does; the newest period may have
 * ended up to one period before now, to allow for publishing delay. A gap or a fleet that stopped
 * reporting breaks the streak, so scaling never acts on old or patchy numbers.
 */
export function evaluateCondition(
  condition: ScalingCondition,
  series: readonly Datapoint[] | undefined,
  nowMs: number,
  periodSeconds: number,
): ConditionResult {
  const values = recentStreak(series ?? [], condition.sustainedFor, nowMs, periodSeconds * 1000);
  const compare = COMPARE[condition.comparison];
  const met =
    values.length === condition.sustainedFor && values.every((value) => compare(value, condition.threshold));
  return { condition, met, values, description: describe(condition, values) };
}

/** Up to `length` values of consecutive datapoints ending near `nowMs`, oldest first. */
function recentStreak(
  series: readonly Datapoint[],
  length: number,
  nowMs: number,
  periodMs: number,
): number[] {
  const known = series.filter((d) => d.timestampMs <= nowMs).sort((a, b) => b.timestampMs - a.timestampMs);
  const streak: number[] = [];
  // Each datapoint lies within one period of the later one; the newest within two periods of now.
  let laterMs = nowMs - periodMs;
  for (const datapoint of known) {
    if (streak.length === length || datapoint.timestampMs < laterMs - periodMs) break;
    streak.unshift(datapoint.value);
    laterMs = datapoint.timestampMs;
  }
  return streak;
}

function describe(condition: ScalingCondition, values: readonly number[]): string {
  const { metric, comparison, threshold, sustainedFor } = condition;
  const rule = `${metric} ${comparison} ${formatMetricValue(metric, threshold)} for ${sustainedFor} datapoints`;
  if (values.length < sustainedFor) {
    return `${rule} (only ${values.length} consecutive recent datapoint${values.length === 1 ? '' : 's'})`;
  }
  return `${rule} (${values.map((v) => formatMetricValue(metric, v)).join(', ')})`;
}
