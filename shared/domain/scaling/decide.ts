import { conditionLabel } from './condition';
import type { MetricSeries } from './metrics';
import type { ScalingPolicy, ScalingRule } from './policy';
import { describeHeld, describeUnmet, evaluateRule, type RuleResult } from './rule';

export type ScalingAction = 'scale-out' | 'scale-in' | 'none';

export interface LastScalingAction {
  readonly action: 'scale-out' | 'scale-in';
  readonly atMs: number;
}

export interface ScalingInput {
  readonly policy: ScalingPolicy;
  readonly metrics: MetricSeries;
  /** GPUs in the fleet, booting ones included, so that a launch in flight is not repeated. */
  readonly currentCapacity: number;
  /** The last scale-out or scale-in decided; null if never. */
  readonly lastAction: LastScalingAction | null;
  readonly nowMs: number;
  /**
   * GPUs of the fleet (counted in `currentCapacity`) whose leases wait in the
   * admission queue. While any do, the policy adds none: more would only wait
   * behind them. None when absent.
   */
  readonly waitingForAdmission?: number | undefined;
}

/** What a decision looked at: each condition's label and the datapoints it judged. */
export interface Observation {
  readonly rule: 'scaleOut' | 'scaleIn';
  readonly metric: string;
  readonly values: readonly number[];
}

export interface ScalingDecision {
  readonly action: ScalingAction;
  readonly from: number;
  readonly to: number;
  readonly reason: string;
  readonly observations: readonly Observation[];
}

/**
 * One evaluation of a fleet's policy. Bounds come first and ignore the cooldown
 * (they are hard limits); then scale-out, which wins over scale-in when a
 * policy lets both hold, because missing load costs more than idle GPUs.
 *
 * Cooldowns, as AWS step scaling has them: a scale-out waits out the cooldown
 * of an earlier scale-out only (a scale-in never delays adding capacity); a
 * scale-in waits out the cooldown of whichever action came last.
 */
export function decideScaling(input: ScalingInput): ScalingDecision {
  const { policy, currentCapacity: from } = input;
  const out = evaluateRule(policy.scaleOut, input.metrics, input.nowMs, policy.periodSeconds);
  const scaleIn = evaluateRule(policy.scaleIn, input.metrics, input.nowMs, policy.periodSeconds);
  const observations = [...observe('scaleOut', out), ...observe('scaleIn', scaleIn)];
  const decision = (action: ScalingAction, to: number, reason: string): ScalingDecision => ({
    action,
    from,
    to,
    reason,
    observations,
  });
  if (from < policy.minCapacity) {
    return decision('scale-out', policy.minCapacity, `below minimum: ${from} < ${policy.minCapacity} GPUs`);
  }
  if (from > policy.maxCapacity) {
    return decision('scale-in', policy.maxCapacity, `above maximum: ${from} > ${policy.maxCapacity} GPUs`);
  }
  if (out.met) return act(input, 'scale-out', policy.scaleOut, out, decision);
  if (scaleIn.met) return act(input, 'scale-in', policy.scaleIn, scaleIn, decision);
  return decision(
    'none',
    from,
    `no rule met: scale-out needs ${describeUnmet(policy.scaleOut, out)}; scale-in needs ${describeUnmet(policy.scaleIn, scaleIn)}`,
  );
}

function observe(rule: Observation['rule'], result: RuleResult): Observation[] {
  return [...result.held, ...result.failed].map((r) => ({
    rule,
    metric: conditionLabel(r.condition),
    values: r.values,
  }));
}

/** Milliseconds the last action's cooldown still blocks `action`; 0 when free to act. */
export function cooldownLeftMs(
  policy: ScalingPolicy,
  lastAction: LastScalingAction | null,
  action: 'scale-out' | 'scale-in',
  nowMs: number,
): number {
  if (lastAction === null) return 0;
  if (action === 'scale-out' && lastAction.action === 'scale-in') return 0;
  const rule = lastAction.action === 'scale-out' ? policy.scaleOut : policy.scaleIn;
  return Math.max(0, lastAction.atMs + rule.cooldownSeconds * 1000 - nowMs);
}

function act(
  input: ScalingInput,
  action: 'scale-out' | 'scale-in',
  rule: ScalingRule,
  result: RuleResult,
  decision: (action: ScalingAction, to: number, reason: string) => ScalingDecision,
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
    return decision('none', from, `${why}, but the fleet is at its ${bound} GPUs`);
  }
  const waiting = input.waitingForAdmission ?? 0;
  if (action === 'scale-out' && waiting > 0) {
    return decision(
      'none',
      from,
      `${why}, but ${waiting} GPU${waiting === 1 ? '' : 's'} asked for earlier still wait${waiting === 1 ? 's' : ''} in the admission queue`,
    );
  }
  const waitMs = cooldownLeftMs(policy, input.lastAction, action, input.nowMs);
  if (waitMs > 0) {
    return decision(
      'none',
      from,
      `${why}, but cooling down for ${Math.ceil(waitMs / 1000)} s more after the last ${input.lastAction?.action}`,
    );
  }
  return decision(action, to, `${why}; ${from} → ${to} GPUs`);
}
