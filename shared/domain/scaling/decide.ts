import type { MetricSeries } from './metrics';
import type { ScalingPolicy, ScalingRule } from './policy';
import { describeHeld, describeUnmet, evaluateRule, type RuleResult } from './rule';

export type ScalingAction = 'scale-out' | 'scale-in' | 'none';

export interface ScalingInput {
  readonly policy: ScalingPolicy;
  readonly metrics: MetricSeries;
  /** GPUs in the fleet, booting ones included, so that a launch in flight is not repeated. */
  readonly currentCapacity: number;
  /** When the last scale-out or scale-in was decided; null if never. */
  readonly lastScalingAtMs: number | null;
  readonly nowMs: number;
}

export interface ScalingDecision {
  readonly action: ScalingAction;
  readonly from: number;
  readonly to: number;
  readonly reason: string;
}

/**
 * One evaluation of a fleet's policy. Bounds come first and ignore the cooldown
 * (they are hard limits); then scale-out, which wins over scale-in when a
 * policy lets both hold, because missing load costs more than idle GPUs.
 */
export function decideScaling(input: ScalingInput): ScalingDecision {
  const { policy, currentCapacity: from } = input;
  if (from < policy.minCapacity) {
    return {
      action: 'scale-out',
      from,
      to: policy.minCapacity,
      reason: `below minimum: ${from} < ${policy.minCapacity} GPUs`,
    };
  }
  if (from > policy.maxCapacity) {
    return {
      action: 'scale-in',
      from,
      to: policy.maxCapacity,
      reason: `above maximum: ${from} > ${policy.maxCapacity} GPUs`,
    };
  }
  const out = evaluateRule(policy.scaleOut, input.metrics, input.nowMs, policy.periodSeconds);
  if (out.met) return act(input, 'scale-out', policy.scaleOut, out);
  const scaleIn = evaluateRule(policy.scaleIn, input.metrics, input.nowMs, policy.periodSeconds);
  if (scaleIn.met) return act(input, 'scale-in', policy.scaleIn, scaleIn);
  return {
    action: 'none',
    from,
    to: from,
    reason: `no rule met: scale-out needs ${describeUnmet(policy.scaleOut, out)}; scale-in needs ${describeUnmet(policy.scaleIn, scaleIn)}`,
  };
}

function act(
  input: ScalingInput,
  action: 'scale-out' | 'scale-in',
  rule: ScalingRule,
  result: RuleResult,
): ScalingDecision {
  const { policy, currentCapacity: from } = input;
  const why = `${action}: ${describeHeld(result)}`;
  const to =
    action === 'scale-out'
      ? Math.min(policy.maxCapacity, from + rule.step)
      : Math.max(policy.minCapacity, from - rule.step);
  if (to === from) {
    const bound =
      action === 'scale-out' ? `maximum of ${policy.maxCapacity}` : `minimum of ${policy.minCapacity}`;
    return { action: 'none', from, to, reason: `${why}, but the fleet is at its ${bound} GPUs` };
  }
  const cooldownLeftMs =
    input.lastScalingAtMs === null ? 0 : input.lastScalingAtMs + policy.cooldownSeconds * 1000 - input.nowMs;
  if (cooldownLeftMs > 0) {
    return {
      action: 'none',
      from,
      to: from,
      reason: `${why}, but cooling down for ${Math.ceil(cooldownLeftMs / 1000)} s more after the last action`,
    };
  }
  return { action, from, to, reason: `${why}; ${from} → ${to} GPUs` };
}
