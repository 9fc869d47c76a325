import type { BudgetAlertMessage, LeaseSpend } from '../domain/budgets/alert-message';
import type { AlertRecord, Budget } from '../domain/budgets/budget';
import type { RentalMode } from '../domain/lease';
import type { MicroUsd } from '../domain/money';
import type { SpendScope } from '../domain/spend';
import type { DimensionLine } from '../domain/usage';

/** Budgets and the alert records that make each alert happen once. */
export interface BudgetRepository {
  get(tenantId: string, name: string): Promise<Budget | undefined>;
  list(tenantId: string): Promise<Budget[]>;
  /** Every tenant's budgets (the evaluator's work list, the admin view). */
  all(): Promise<Budget[]>;
  /**
   * Stores `budget` if the stored revision is still `expectedRevision`
   * (undefined: none stored). False when someone else changed it first.
   */
  save(budget: Budget, expectedRevision: number | undefined): Promise<boolean>;
  /** False when there was nothing to delete. */
  delete(tenantId: string, name: string): Promise<boolean>;
  /**
   * Records `record` under `key` for `month` only if no record holds that key yet
   * and the budget is still at the revision read. True: this caller owns the alert.
   */
  claimAlert(budget: Budget, month: string, key: string, record: AlertRecord): Promise<boolean>;
  /** Takes over a claim left unfinished (same `claimedAtMs` as read, never sent). */
  takeOverClaim(
    budget: Budget,
    month: string,
    key: string,
    record: AlertRecord,
    atMs: number,
  ): Promise<boolean>;
  /** Marks the alert as on the topic. */
  markSent(budget: Budget, month: string, key: string, alertId: string, atMs: number): Promise<void>;
}

export interface SpendCounterKey {
  readonly tenantId: string;
  readonly month: string;
  readonly scope: SpendScope;
}

/** One daily rollup: what a tenant's charges of one mode, instance type and project came to on a day. */
export interface DailyUsage {
  readonly day: string;
  readonly mode: RentalMode;
  readonly instanceType: string;
  readonly project?: string | undefined;
  readonly seconds: number;
  readonly microUsd: MicroUsd;
}

/** One lease's charges on one day. */
export interface LeaseDayUsage {
  readonly day: string;
  readonly leaseId: string;
  readonly project?: string | undefined;
  readonly seconds: number;
  readonly microUsd: MicroUsd;
}

/** A day's charges of one dimension besides compute (compute is the day's rollups less these). */
export type DimensionDayUsage = DimensionLine;

/** Month-to-date counters and daily rollups, written by metering with each charge. */
export interface SpendCounters {
  /** Spend of each key, in the order asked (0 where nothing was charged). */
  spendOf(keys: readonly SpendCounterKey[]): Promise<MicroUsd[]>;
  /** Per-lease spend of a tenant's month, optionally only leases of one project. */
  leaseSpends(tenantId: string, month: string, project?: string): Promise<LeaseSpend[]>;
  /** Daily rollups of the days `fromDay`..`toDay` (inclusive, `yyyy-mm-dd`). */
  dailyUsage(tenantId: string, fromDay: string, toDay: string): Promise<DailyUsage[]>;
  /** Per-lease daily rollups of the days `fromDay`..`toDay` (inclusive). */
  leaseDailyUsage(tenantId: string, fromDay: string, toDay: string): Promise<LeaseDayUsage[]>;
  /** Daily storage and transfer rollups of the days `fromDay`..`toDay` (inclusive). */
  dimensionDailyUsage(tenantId: string, fromDay: string, toDay: string): Promise<DimensionDayUsage[]>;
}

/** The budget alerts topic. */
export interface BudgetNotifier {
  publish(message: BudgetAlertMessage): Promise<void>;
}
