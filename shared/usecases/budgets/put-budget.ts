import { ClientError } from '../../client-error';
import { alertsOf, type Budget, type BudgetSettings } from '../../domain/budgets/budget';
import { rearmedAlertKeys } from '../../domain/budgets/evaluation';
import { budgetScope } from '../../domain/spend';
import type { BudgetRepository } from '../../ports/budgets';
import { type BudgetStatus, measuresOf, type StatusDeps, statusOfTenantBudgets } from './budget-status';

/** A concurrent change (another PUT, an evaluator's claim) won every attempt. */
export class BudgetUpdateConflictError extends ClientError {
  constructor(readonly budgetName: string) {
    super(
      409,
      'BUDGET_CHANGED',
      `Budget ${budgetName} kept changing while it was being saved; retry the request`,
    );
    this.name = 'BudgetUpdateConflictError';
  }
}

const SAVE_ATTEMPTS = 4;

export interface PutBudgetResult {
  readonly budget: Budget;
  /** The saved budget measured now (what the API answers with). */
  readonly status: BudgetStatus;
  readonly created: boolean;
  /** Alert keys armed again by this change (e.g. `actual#80` after the limit was raised). */
  readonly rearmed: readonly string[];
}

/**
 * Creates or replaces a budget's settings. Alerts already sent this month stay
 * sent, except those the change voids (see `rearmedAlertKeys`): raising the
 * limit above the spend arms the thresholds no longer crossed again. The write is
 * conditioned on the revision read, so a claim racing the change is redone.
 */
export async function putBudget(
  deps: StatusDeps & { readonly budgets: BudgetRepository },
  tenantId: string,
  name: string,
  settings: BudgetSettings,
): Promise<PutBudgetResult> {
  for (let attempt = 0; attempt < SAVE_ATTEMPTS; attempt += 1) {
    const now = deps.now();
    const existing = await deps.budgets.get(tenantId, name);
    if (!existing) {
      const budget: Budget = {
        tenantId,
        name,
        ...settings,
        revision: 1,
        createdAtMs: now,
        updatedAtMs: now,
        alerts: {},
      };
      if (!(await deps.budgets.save(budget, undefined))) continue;
      const [status] = await statusOfTenantBudgets(deps, tenantId, [budget]);
      return { budget, status: status as BudgetStatus, created: true, rearmed: [] };
    }
    const [measured] = await statusOfTenantBudgets(deps, tenantId, [existing]);
    const status = measured as BudgetStatus;
    const month = status.month;
    const rearmed = rearmedAlertKeys(existing, settings, month, measuresOf(status.forecast));
    const kept = Object.fromEntries(
      Object.entries(alertsOf(existing, month)).filter(([key]) => !rearmed.includes(key)),
    );
    const budget: Budget = {
      ...existing,
      project: undefined,
      ...settings,
      revision: existing.revision + 1,
      updatedAtMs: now,
      alertMonth: month,
      alerts: kept,
    };
    if (!(await deps.budgets.save(budget, existing.revision))) continue;
    // The spend read for the old settings holds for the new ones unless the scope (project) moved.
    const saved: BudgetStatus =
      budgetScope(budget.project) === budgetScope(existing.project)
        ? { budget, month, forecast: status.forecast, alerts: alertsOf(budget, month) }
        : ((await statusOfTenantBudgets(deps, tenantId, [budget]))[0] as BudgetStatus);
    return { budget, status: saved, created: false, rearmed };
  }
  throw new BudgetUpdateConflictError(name);
}
