import type { BudgetAction, BudgetBasis } from '../shared/domain/budgets/budget';
import { type CliIo, client, type OutputOptions, print, printPut, usdForPeople } from './common';
import { usageError } from './errors';
import { details, table } from './table';

type Budget = {
  name: string;
  project?: string;
  monthlyLimitUsd: number;
  thresholds: number[];
  basis: string;
  action: string;
  month: string;
  spendUsd: number;
  forecastUsd: number;
  percentUsed: number;
  thresholdsCrossed: { threshold: number; basis: string; crossedAt: string }[];
};

export interface BudgetSetOptions extends OutputOptions {
  readonly limit: string;
  readonly project?: string;
  readonly thresholds?: string;
  readonly basis?: BudgetBasis;
  readonly action?: BudgetAction;
}

export async function budgetSet(name: string, options: BudgetSetOptions, io: CliIo) {
  const limit = Number(options.limit);
  if (!(limit > 0)) throw usageError(`--limit must be a positive amount of USD, not "${options.limit}"`);
  const thresholds = options.thresholds?.split(',').map((t) => Number(t.trim()));
  if (thresholds?.some((t) => !Number.isFinite(t)))
    throw usageError(`--thresholds must be percentages such as 50,80,100, not "${options.thresholds}"`);
  const result = await (await client()).request<Budget>('PUT', `v1/budgets/${encodeURIComponent(name)}`, {
    body: {
      monthlyLimitUsd: limit,
      project: options.project,
      thresholds,
      basis: options.basis,
      action: options.action,
    },
  });
  printPut(io, options, 'budget', name, result, budgetDetails);
}

function budgetDetails(budget: Budget): string {
  return details([
    ['budget', budget.name],
    ['project', budget.project ?? '(whole tenant)'],
    ['limit', `${usdForPeople(budget.monthlyLimitUsd)}/month`],
    ['thresholds', `${budget.thresholds.join(', ')} % (${budget.basis})`],
    ['action', budget.action],
    ['month', budget.month],
    ['spend', `${usdForPeople(budget.spendUsd)} (${budget.percentUsed.toFixed(1)} %)`],
    ['forecast', usdForPeople(budget.forecastUsd)],
    ['crossed', budget.thresholdsCrossed.map((c) => `${c.basis} ${c.threshold}%`).join(', ') || 'none'],
  ]);
}

export async function budgetList(options: OutputOptions, io: CliIo) {
  const result = (await (await client()).request<{ budgets: Budget[] }>('GET', 'v1/budgets')).body;
  print(io, options, result, () =>
    table(
      ['BUDGET', 'PROJECT', 'LIMIT USD', 'SPEND USD', 'USED %', 'FORECAST USD', 'ACTION'],
      result.budgets.map((b) => [
        b.name,
        b.project,
        usdForPeople(b.monthlyLimitUsd),
        usdForPeople(b.spendUsd),
        b.percentUsed.toFixed(1),
        usdForPeople(b.forecastUsd),
        b.action,
      ]),
    ),
  );
}

export async function budgetShow(name: string, options: OutputOptions, io: CliIo) {
  const budget = (await (await client()).request<Budget>('GET', `v1/budgets/${encodeURIComponent(name)}`))
    .body;
  print(io, options, budget, () => budgetDetails(budget));
}

export async function budgetRemove(name: string, options: OutputOptions, io: CliIo) {
  await (await client()).request('DELETE', `v1/budgets/${encodeURIComponent(name)}`);
  print(io, options, { name, deleted: true }, () => `Deleted budget ${name}\n`);
}
