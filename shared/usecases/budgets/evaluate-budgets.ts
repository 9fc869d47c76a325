import { mapWithConcurrency } from '../../concurrency';
import {
  actionNoticeMessage,
  alertIdOf,
  type BudgetAlertMessage,
  thresholdAlertMessage,
} from '../../domain/budgets/alert-message';
import { ACTION_KEY, type AlertRecord, alertsOf, type Budget } from '../../domain/budgets/budget';
import { evaluateBudget, type ThresholdCrossing } from '../../domain/budgets/evaluation';
import type { Forecast } from '../../domain/budgets/forecast';
import { isTerminal, type LeaseInstance } from '../../domain/lease';
import type { DomainEvent } from '../../ports/domain-events';
import type { BudgetControl, ControlPlane } from '../dependencies';
import { requestRelease } from '../release-lease';
import { measureBudgets, measuresOf } from './budget-status';

export type BudgetEvaluationDeps = Pick<ControlPlane, 'leases' | 'spend' | 'commands' | 'events' | 'now'> &
  BudgetControl;

export interface EvaluationSummary {
  readonly budgets: number;
  readonly alertsSent: number;
  readonly actionsTaken: number;
  readonly leasesReleased: number;
}

/** Budgets judged at once; almost all need no write, so this bounds only the rare alert paths. */
const CONCURRENCY = 64;

export interface BudgetRound {
  readonly deps: BudgetEvaluationDeps;
  readonly budget: Budget;
  readonly month: string;
  readonly atMs: number;
  readonly forecast: Forecast;
  readonly open: readonly LeaseInstance[];
}

/**
 * One evaluation round over every tenant's budgets: reads the budgets, their
 * spend counters (batched) and the open instances once, then claims, publishes
 * and records each alert owed. Safe to run twice at once, or again after a crash:
 * an alert is published only by the evaluation whose conditional claim won, and
 * a claim left unpublished is finished by a later round.
 */
export async function evaluateBudgets(deps: BudgetEvaluationDeps, atMs: number): Promise<EvaluationSummary> {
  const budgets = await deps.budgets.all();
  const open = budgets.length > 0 ? deps.leases.openInstances() : Promise.resolve([]);
  const statuses = await measureBudgets(deps, budgets, open, atMs);
  const instances = await open;
  const outcomes = await mapWithConcurrency(statuses, CONCURRENCY, (status) =>
    settleBudget({ deps, ...status, atMs, open: instances }),
  );
  return outcomes.reduce<EvaluationSummary>(
    (sum, outcome) => ({
      budgets: sum.budgets + 1,
      alertsSent: sum.alertsSent + outcome.alertsSent,
      actionsTaken: sum.actionsTaken + outcome.actionsTaken,
      leasesReleased: sum.leasesReleased + outcome.leasesReleased,
    }),
    { budgets: 0, alertsSent: 0, actionsTaken: 0, leasesReleased: 0 },
  );
}

/** What one budget owes this round, carried out: claims, alerts, the limit action. */
export async function settleBudget(round: BudgetRound): Promise<Omit<EvaluationSummary, 'budgets'>> {
  const { budget, month, atMs, forecast } = round;
  const evaluation = evaluateBudget(budget, month, measuresOf(forecast), atMs);
  let alertsSent = 0;
  let actionsTaken = 0;
  let leasesReleased = 0;

  for (const crossing of evaluation.crossings) {
    const record = thresholdRecord(round, crossing);
    if (await round.deps.budgets.claimAlert(budget, month, crossing.key, record)) {
      await publishThreshold(round, crossing.key, record);
      alertsSent += 1;
    }
  }
  for (const { key, record } of evaluation.unfinished) {
    if (!(await round.deps.budgets.takeOverClaim(budget, month, key, record, atMs))) continue;
    if (record.kind === 'action') leasesReleased += await takeAction(round, record);
    else await publishThreshold(round, key, record);
    alertsSent += 1;
  }
  if (evaluation.actionDue) {
    const record: AlertRecord = {
      kind: 'action',
      alertId: alertIdOf(budget, month, ACTION_KEY),
      claimedAtMs: atMs,
      valueMicroUsd: forecast.spendMicroUsd,
      limitMicroUsd: budget.limitMicroUsd,
    };
    if (await round.deps.budgets.claimAlert(budget, month, ACTION_KEY, record)) {
      leasesReleased += await takeAction(round, record);
      actionsTaken += 1;
    }
  } else if (
    evaluation.overLimit &&
    budget.action === 'stop-interruptible' &&
    alertsOf(budget, month)[ACTION_KEY]?.sentAtMs !== undefined
  ) {
    // The action holds while spend stays over the limit: interruptible leases started since are released too.
    const released = await releaseInterruptible(round);
    if (released.length > 0) await round.deps.events.publish([actionEvent(round, released)]);
    leasesReleased += released.length;
  }
  return { alertsSent, actionsTaken, leasesReleased };
}

function thresholdRecord(round: BudgetRound, crossing: ThresholdCrossing): AlertRecord {
  return {
    kind: 'threshold',
    basis: crossing.basis,
    threshold: crossing.threshold,
    alertId: alertIdOf(round.budget, round.month, crossing.key),
    claimedAtMs: round.atMs,
    valueMicroUsd: crossing.valueMicroUsd,
    limitMicroUsd: round.budget.limitMicroUsd,
  };
}

async function publishThreshold(round: BudgetRound, key: string, record: AlertRecord): Promise<void> {
  const { deps, budget, month } = round;
  const basis = record.basis ?? 'actual';
  const threshold = record.threshold ?? 0;
  const leases = await deps.spend.leaseSpends(budget.tenantId, month, budget.project);
  const message = thresholdAlertMessage({
    budget,
    month,
    key,
    basis,
    threshold,
    forecast: round.forecast,
    leases,
  });
  await deliver(round, key, message, {
    type: 'BudgetThresholdCrossed',
    tenantId: budget.tenantId,
    detail: {
      budget: budget.name,
      project: budget.project,
      month,
      threshold,
      basis,
      valueMicroUsd: record.valueMicroUsd,
      limitMicroUsd: record.limitMicroUsd,
      forecastMicroUsd: round.forecast.microUsd,
      alertId: message.attributes.alertId,
    },
  });
}

/** Runs the budget's limit action (idempotent), then tells the tenant once on the topic and the bus. */
async function takeAction(round: BudgetRound, record: AlertRecord): Promise<number> {
  const released = round.budget.action === 'stop-interruptible' ? await releaseInterruptible(round) : [];
  const message = actionNoticeMessage({
    budget: round.budget,
    month: round.month,
    key: ACTION_KEY,
    spendMicroUsd: record.valueMicroUsd,
    releasedLeaseIds: released,
  });
  await deliver(round, ACTION_KEY, message, actionEvent(round, released));
  return released.length;
}

function actionEvent(round: BudgetRound, released: readonly string[]): DomainEvent {
  return {
    type: 'BudgetActionTaken',
    tenantId: round.budget.tenantId,
    detail: {
      budget: round.budget.name,
      project: round.budget.project,
      month: round.month,
      action: round.budget.action,
      spendMicroUsd: round.forecast.spendMicroUsd,
      limitMicroUsd: round.budget.limitMicroUsd,
      releasedLeaseIds: released,
    },
  };
}

/** Topic first, then the record that it went out, then the bus event. */
async function deliver(round: BudgetRound, key: string, message: BudgetAlertMessage, event: DomainEvent) {
  const { deps, budget, month } = round;
  await deps.notifier.publish(message);
  await deps.budgets.markSent(budget, month, key, message.attributes.alertId, deps.now());
  await deps.events.publish([event]);
}

/** Spot and batch leases in the budget's scope that still run: each is asked to release (idempotent). */
async function releaseInterruptible(round: BudgetRound): Promise<string[]> {
  const { deps, budget } = round;
  const candidates = new Set(
    round.open
      .filter((i) => i.tenantId === budget.tenantId && (!budget.project || i.project === budget.project))
      .map((i) => i.leaseId),
  );
  const released: string[] = [];
  for (const leaseId of candidates) {
    const lease = await deps.leases.get(budget.tenantId, leaseId);
    if (!lease || isTerminal(lease.status) || lease.status === 'RELEASING') continue;
    const interruptible = lease.workload === 'batch' || lease.instances.some((i) => i.mode === 'spot');
    if (!interruptible) continue;
    await requestRelease(deps, budget.tenantId, leaseId);
    released.push(leaseId);
  }
  return released;
}
