import type { MicroUsd } from '../money';

export const BUDGET_BASES = ['actual', 'forecast', 'both'] as const;
export type BudgetBasis = (typeof BUDGET_BASES)[number];
/** A measure an alert is about: spend so far, or spend forecast for the month's end. */
export type AlertBasis = Exclude<BudgetBasis, 'both'>;

/** What happens once actual spend reaches the limit (100%). */
export const BUDGET_ACTIONS = ['notify', 'block-new-leases', 'stop-interruptible'] as const;
export type BudgetAction = (typeof BUDGET_ACTIONS)[number];

export const DEFAULT_THRESHOLDS: readonly number[] = [50, 80, 100];
export const BUDGET_NAME_PATTERN = /^[a-z0-9-]{1,64}$/;
export const PROJECT_PATTERN = /^[a-z0-9-]{1,64}$/;
export const MIN_THRESHOLD_PERCENT = 1;
export const MAX_THRESHOLD_PERCENT = 1000;

/** The one alert a (month, basis, threshold) may cause, or the one action notice a month may cause. */
export interface AlertRecord {
  readonly kind: 'threshold' | 'action';
  readonly basis?: AlertBasis | undefined;
  readonly threshold?: number | undefined;
  /** Deterministic: a subscriber drops a repeat of an id it has seen. */
  readonly alertId: string;
  readonly claimedAtMs: number;
  /** Set once the message is on the topic; a claim without it is finished by a later evaluation. */
  readonly sentAtMs?: number | undefined;
  /** The measure and the limit at the crossing. */
  readonly valueMicroUsd: MicroUsd;
  readonly limitMicroUsd: MicroUsd;
}

/** What a tenant sets with `PUT /v1/budgets/{name}`. */
export interface BudgetSettings {
  readonly limitMicroUsd: MicroUsd;
  /** Only leases with this project label count; absent: the whole tenant. */
  readonly project?: string | undefined;
  /** Percentages of the limit, ascending and unique. */
  readonly thresholds: readonly number[];
  readonly basis: BudgetBasis;
  readonly action: BudgetAction;
}

export interface Budget extends BudgetSettings {
  readonly tenantId: string;
  readonly name: string;
  /** Grows with every change of settings; claims are conditioned on it. */
  readonly revision: number;
  readonly createdAtMs: number;
  readonly updatedAtMs: number;
  /** The month `alerts` belong to; a new month starts clean. */
  readonly alertMonth?: string | undefined;
  /** Alert records of `alertMonth`, keyed by `alertKey`. */
  readonly alerts: Readonly<Record<string, AlertRecord>>;
}

/** Key of a threshold's alert record, e.g. `actual#80`; `action` for the limit action. */
export const alertKey = (basis: AlertBasis, threshold: number) => `${basis}#${threshold}`;
export const ACTION_KEY = 'action';

export const basesOf = (basis: BudgetBasis): AlertBasis[] =>
  basis === 'both' ? ['actual', 'forecast'] : [basis];

/** The amount a percentage of the limit stands for, rounded up to the micro-dollar. */
export function thresholdAmount(limitMicroUsd: MicroUsd, percent: number): MicroUsd {
  return Math.ceil((limitMicroUsd * percent) / 100);
}

/** Alert records that hold for `month`: none once the month has turned. */
export function alertsOf(budget: Budget, month: string): Readonly<Record<string, AlertRecord>> {
  return budget.alertMonth === month ? budget.alerts : {};
}
