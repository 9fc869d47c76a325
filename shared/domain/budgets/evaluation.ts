import type { MicroUsd } from '../money';
import {
  ACTION_KEY,
  type AlertBasis,
  type AlertRecord,
  alertKey,
  alertsOf,
  type Budget,
  type BudgetSettings,
  basesOf,
  thresholdAmount,
} from './budget';

/** The two measures a budget is judged on, for its scope and month. */
export interface BudgetMeasures {
  readonly actualMicroUsd: MicroUsd;
  readonly forecastMicroUsd: MicroUsd;
}

export interface ThresholdCrossing {
  readonly key: string;
  readonly basis: AlertBasis;
  readonly threshold: number;
  readonly valueMicroUsd: MicroUsd;
  readonly thresholdMicroUsd: MicroUsd;
}

export interface BudgetEvaluation {
  /** Crossed and not yet alerted this month: each is claimed, then published, once. */
  readonly crossings: readonly ThresholdCrossing[];
  /** Whether the limit action is due and not yet taken this month. */
  readonly actionDue: boolean;
  /** Whether actual spend is at or over the limit (the action holds while it is). */
  readonly overLimit: boolean;
  /** Claims an earlier evaluation made but never finished (no `sentAtMs`), older than the grace period. */
  readonly unfinished: readonly { readonly key: string; readonly record: AlertRecord }[];
}

/** A claim younger than this is presumed still being published by the evaluation that made it. */
export const CLAIM_GRACE_MS = 2 * 60_000;

const measureOf = (basis: AlertBasis, measures: BudgetMeasures) =>
  basis === 'actual' ? measures.actualMicroUsd : measures.forecastMicroUsd;

/**
 * What one evaluation of a budget owes in `month`: every threshold whose measure
 * has reached it and that has no alert record yet, the limit action when actual
 * spend reached 100% and the action is not `notify`, and stale unfinished claims.
 */
export function evaluateBudget(
  budget: Budget,
  month: string,
  measures: BudgetMeasures,
  atMs: number,
): BudgetEvaluation {
  const records = alertsOf(budget, month);
  const crossings: ThresholdCrossing[] = [];
  for (const basis of basesOf(budget.basis)) {
    const value = measureOf(basis, measures);
    for (const threshold of budget.thresholds) {
      const amount = thresholdAmount(budget.limitMicroUsd, threshold);
      const key = alertKey(basis, threshold);
      if (value >= amount && !records[key]) {
        crossings.push({ key, basis, threshold, valueMicroUsd: value, thresholdMicroUsd: amount });
      }
    }
  }
  const overLimit = measures.actualMicroUsd >= budget.limitMicroUsd;
  const unfinished = Object.entries(records)
    .filter(([, record]) => record.sentAtMs === undefined && atMs - record.claimedAtMs >= CLAIM_GRACE_MS)
    .map(([key, record]) => ({ key, record }));
  return {
    crossings,
    actionDue: overLimit && budget.action !== 'notify' && !records[ACTION_KEY],
    overLimit,
    unfinished,
  };
}

/**
 * Alert records a change of settings makes void, as keys to drop. Raising the
 * limit arms again every threshold whose measure is now below it (and the limit
 * action once actual spend is back under the limit); a new project scope is a
 * new spend, so it starts clean; a threshold or basis no longer watched loses
 * its record. Lowering the limit voids nothing: what was crossed stays crossed.
 */
export function rearmedAlertKeys(
  previous: Budget,
  next: BudgetSettings,
  month: string,
  measures: BudgetMeasures,
): string[] {
  const records = Object.entries(alertsOf(previous, month));
  if (previous.project !== next.project) return records.map(([key]) => key);
  const raised = next.limitMicroUsd > previous.limitMicroUsd;
  const dropped: string[] = [];
  for (const [key, record] of records) {
    if (record.kind === 'action') {
      if (raised && measures.actualMicroUsd < next.limitMicroUsd) dropped.push(key);
      continue;
    }
    const { basis = 'actual', threshold = 0 } = record;
    const watched = basesOf(next.basis).includes(basis) && next.thresholds.includes(threshold);
    const belowNow = measureOf(basis, measures) < thresholdAmount(next.limitMicroUsd, threshold);
    if (!watched || (raised && belowNow)) dropped.push(key);
  }
  return dropped;
}
