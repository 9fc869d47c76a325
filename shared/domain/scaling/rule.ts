import { type ConditionResult, evaluateCondition } from './condition';
import type { MetricSeries } from './metrics';
import type { ScalingRule } from './policy';

export interface RuleResult {
  readonly met: boolean;
  readonly held: readonly ConditionResult[];
  readonly failed: readonly ConditionResult[];
}

export function evaluateRule(
  rule: ScalingRule,
  metrics: MetricSeries,
  nowMs: number,
  periodSeconds: number,
): RuleResult {
  const results = rule.conditions.map((c) => evaluateCondition(c, metrics, nowMs, periodSeconds));
  const held = results.filter((r) => r.met);
  const failed = results.filter((r) => !r.met);
  return { met: rule.match === 'all' ? failed.length === 0 : held.length > 0, held, failed };
}

/** Why a rule fired: the conditions that held. */
export function describeHeld(result: RuleResult): string {
  return result.held.map((r) => r.description).join(' and ');
}

/** Why a rule did not fire: what it needs and what the data showed. */
export function describeUnmet(rule: ScalingRule, result: RuleResult): string {
  const needs = rule.conditions.length === 1 ? '' : `${rule.match} of: `;
  return `${needs}${result.failed.map((r) => r.description).join('; ')}`;
}
