import type { BudgetAlertMessage } from '../../../shared/domain/budgets/alert-message';
import type { AlertRecord, Budget } from '../../../shared/domain/budgets/budget';
import type { BudgetNotifier, BudgetRepository } from '../../../shared/ports/budgets';
import { Faults, stored } from './faults';

const key = (tenantId: string, name: string) => `${tenantId}\n${name}`;

/**
 * Budgets with DynamoDbBudgetRepository's conditions: saves hold only at the
 * revision read, an alert is claimed once per key and month (the month's first
 * claim replaces last month's records) and only at the budget's revision, a
 * claim is taken over only as it was read and never once sent.
 */
export class FakeBudgetRepository implements BudgetRepository {
  readonly faults = new Faults<keyof BudgetRepository>();
  private readonly budgets = new Map<string, Budget>();
  private racingSaves = 0;

  /** Another writer changes the budget just before each of the next `times` saves (which then lose). */
  raceSaves(times: number): void {
    this.racingSaves = times;
  }

  async get(tenantId: string, name: string): Promise<Budget | undefined> {
    this.faults.enter('get', [tenantId, name]);
    const budget = this.budgets.get(key(tenantId, name));
    return budget && stored(budget);
  }

  async list(tenantId: string): Promise<Budget[]> {
    this.faults.enter('list', [tenantId]);
    return [...this.budgets.values()]
      .filter((b) => b.tenantId === tenantId)
      .sort((a, b) => a.name.localeCompare(b.name))
      .map(stored);
  }

  async all(): Promise<Budget[]> {
    this.faults.enter('all', []);
    return [...this.budgets.values()].map(stored);
  }

  async save(budget: Budget, expectedRevision: number | undefined): Promise<boolean> {
    this.faults.enter('save', [budget, expectedRevision]);
    const read = this.budgets.get(key(budget.tenantId, budget.name));
    if (read && this.racingSaves > 0) {
      this.racingSaves -= 1;
      this.replace({ ...read, revision: read.revision + 1 });
    }
    const current = this.budgets.get(key(budget.tenantId, budget.name));
    if (expectedRevision === undefined ? current !== undefined : current?.revision !== expectedRevision) {
      return false;
    }
    this.budgets.set(key(budget.tenantId, budget.name), stored(budget));
    return true;
  }

  async delete(tenantId: string, name: string): Promise<boolean> {
    this.faults.enter('delete', [tenantId, name]);
    return this.budgets.delete(key(tenantId, name));
  }

  async claimAlert(budget: Budget, month: string, alertKey: string, record: AlertRecord): Promise<boolean> {
    this.faults.enter('claimAlert', [budget, month, alertKey, record]);
    const current = this.budgets.get(key(budget.tenantId, budget.name));
    if (!current || current.revision !== budget.revision) return false;
    if (current.alertMonth !== month) {
      this.replace({ ...current, alertMonth: month, alerts: { [alertKey]: record } });
      return true;
    }
    if (current.alerts[alertKey] !== undefined) return false;
    this.replace({ ...current, alerts: { ...current.alerts, [alertKey]: record } });
    return true;
  }

  async takeOverClaim(
    budget: Budget,
    month: string,
    alertKey: string,
    record: AlertRecord,
    atMs: number,
  ): Promise<boolean> {
    this.faults.enter('takeOverClaim', [budget, month, alertKey, record, atMs]);
    const current = this.budgets.get(key(budget.tenantId, budget.name));
    const held = current?.alerts[alertKey];
    if (
      !current ||
      !held ||
      current.revision !== budget.revision ||
      current.alertMonth !== month ||
      held.claimedAtMs !== record.claimedAtMs ||
      held.sentAtMs !== undefined
    ) {
      return false;
    }
    this.replace({ ...current, alerts: { ...current.alerts, [alertKey]: { ...held, claimedAtMs: atMs } } });
    return true;
  }

  async markSent(
    budget: Budget,
    month: string,
    alertKey: string,
    alertId: string,
    atMs: number,
  ): Promise<void> {
    this.faults.enter('markSent', [budget, month, alertKey, alertId, atMs]);
    const current = this.budgets.get(key(budget.tenantId, budget.name));
    const held = current?.alerts[alertKey];
    // A budget changed or re-armed meanwhile has no such record left: nothing to mark.
    if (!current || !held || current.alertMonth !== month || held.alertId !== alertId) return;
    this.replace({ ...current, alerts: { ...current.alerts, [alertKey]: { ...held, sentAtMs: atMs } } });
  }

  private replace(budget: Budget): void {
    this.budgets.set(key(budget.tenantId, budget.name), stored(budget));
  }
}

/** The budget alerts topic: what was published, in order. */
export class FakeBudgetNotifier implements BudgetNotifier {
  readonly faults = new Faults<'publish'>();
  readonly messages: BudgetAlertMessage[] = [];

  async publish(message: BudgetAlertMessage): Promise<void> {
    this.faults.enter('publish', [message]);
    this.messages.push(stored(message));
  }
}
