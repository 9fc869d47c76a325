import { budgetScope, monthOf } from '../../domain/spend';
import { BudgetExceededError } from '../../errors';
import type { BudgetRepository, SpendCounters } from '../../ports/budgets';

interface Deps {
  readonly budgets: BudgetRepository;
  readonly spend: SpendCounters;
  readonly now: () => number;
}

/**
 * Refuses a new lease when a `block-new-leases` budget whose scope holds it
 * (the tenant's, or the lease's project's) has reached its limit this month.
 * Reads the tenant's budgets and their counters: two requests, no usage rows.
 */
export async function assertWithinBudgets(
  deps: Deps,
  tenantId: string,
  project: string | undefined,
): Promise<void> {
  const blocking = (await deps.budgets.list(tenantId)).filter(
    (budget) =>
      budget.action === 'block-new-leases' && (budget.project === undefined || budget.project === project),
  );
  if (blocking.length === 0) return;
  const month = monthOf(deps.now());
  const spends = await deps.spend.spendOf(
    blocking.map((budget) => ({ tenantId, month, scope: budgetScope(budget.project) })),
  );
  blocking.forEach((budget, i) => {
    const spend = spends[i] ?? 0;
    if (spend >= budget.limitMicroUsd)
      throw new BudgetExceededError(budget.name, spend, budget.limitMicroUsd);
  });
}
