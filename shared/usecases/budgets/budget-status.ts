import { type AlertRecord, alertsOf, type Budget } from '../../domain/budgets/budget';
import type { BudgetMeasures } from '../../domain/budgets/evaluation';
import { type Forecast, forecastMonthEnd } from '../../domain/budgets/forecast';
import { runRates } from '../../domain/budgets/run-rate';
import type { LeaseInstance } from '../../domain/lease';
import { budgetScope, monthOf } from '../../domain/spend';
import type { SpendCounters } from '../../ports/budgets';
import type { LeaseRepository } from '../../ports/lease-repository';

export interface BudgetStatus {
  readonly budget: Budget;
  readonly month: string;
  readonly forecast: Forecast;
  /** This month's alert records (crossings with when, and whether each went out). */
  readonly alerts: Readonly<Record<string, AlertRecord>>;
}

export interface StatusDeps {
  readonly leases: Pick<LeaseRepository, 'openInstances' | 'openInstancesOf'>;
  readonly spend: SpendCounters;
  readonly now: () => number;
}

export const measuresOf = (forecast: Forecast): BudgetMeasures => ({
  actualMicroUsd: forecast.spendMicroUsd,
  forecastMicroUsd: forecast.microUsd,
});

/**
 * Spend so far and forecast of budgets at `atMs`: one batched read of their
 * counters and the open instances that give the run rates (`open`), never a
 * usage row. The evaluator, the API and the admin view all measure this way.
 */
export async function measureBudgets(
  deps: Pick<StatusDeps, 'spend'>,
  budgets: readonly Budget[],
  open: Promise<LeaseInstance[]>,
  atMs: number,
): Promise<BudgetStatus[]> {
  if (budgets.length === 0) return [];
  const month = monthOf(atMs);
  const [spends, instances] = await Promise.all([
    deps.spend.spendOf(
      budgets.map((budget) => ({ tenantId: budget.tenantId, month, scope: budgetScope(budget.project) })),
    ),
    open,
  ]);
  const rateOf = runRates(instances);
  return budgets.map((budget, i) => ({
    budget,
    month,
    forecast: forecastMonthEnd(spends[i] ?? 0, rateOf(budget.tenantId, budget.project), atMs),
    alerts: alertsOf(budget, month),
  }));
}

/** One tenant's budgets, measured now. */
export function statusOfTenantBudgets(
  deps: StatusDeps,
  tenantId: string,
  budgets: readonly Budget[],
): Promise<BudgetStatus[]> {
  return measureBudgets(deps, budgets, deps.leases.openInstancesOf(tenantId), deps.now());
}
