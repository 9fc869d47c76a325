import { createHash } from 'node:crypto';
import { formatUsdForPeople, formatUsdPerHourForPeople, type MicroUsd } from '../money';
import type { AlertBasis, Budget } from './budget';
import type { Forecast } from './forecast';

/** One of the month's costliest leases in the budget's scope. */
export interface LeaseSpend {
  readonly leaseId: string;
  readonly microUsd: MicroUsd;
}

/** A message for the budget alerts topic: what subscribers read and filter on. */
export interface BudgetAlertMessage {
  readonly subject: string;
  readonly body: string;
  /** SNS message attributes, usable in subscription filter policies. */
  readonly attributes: {
    readonly tenant: string;
    readonly budget: string;
    readonly month: string;
    readonly alertId: string;
    readonly kind: 'threshold' | 'action';
    readonly threshold?: number | undefined;
    readonly basis?: AlertBasis | undefined;
  };
}

/** SNS subjects are ASCII, one line, at most 100 characters. */
const MAX_SUBJECT = 100;
const TOP_LEASES = 5;

/**
 * The same alert always gets the same id (budget incarnation and revision,
 * month, key), so a subscriber can drop the duplicate that a crash between
 * publishing and recording the publish may cause.
 */
export function alertIdOf(budget: Budget, month: string, key: string): string {
  return createHash('sha256')
    .update([budget.tenantId, budget.name, budget.createdAtMs, budget.revision, month, key].join('\n'))
    .digest('hex')
    .slice(0, 32);
}

const usd = formatUsdForPeople;
const scopeOf = (budget: Budget) => (budget.project ? `project ${budget.project}` : 'all leases');

function subjectLine(text: string): string {
  return text.length <= MAX_SUBJECT ? text : `${text.slice(0, MAX_SUBJECT - 3)}...`;
}

function forecastLine(forecast: Forecast): string {
  const hours = (forecast.secondsLeft / 3600).toFixed(1);
  return `Forecast for the month's end: ${usd(forecast.microUsd)} = spend so far ${usd(forecast.spendMicroUsd)} + running leases at ${formatUsdPerHourForPeople(forecast.runRateMicroUsdPerHour)} x ${hours} h left in the month (UTC).`;
}

function leaseLines(leases: readonly LeaseSpend[]): string[] {
  if (leases.length === 0) return ['No lease in scope has been charged this month.'];
  return [
    // Each line is rounded on its own, so two leases of $0.014 read $0.01 + $0.01 against $0.03 spent.
    `Costliest leases this month (top ${Math.min(TOP_LEASES, leases.length)}; amounts rounded to the cent, so they may not add up to the spend):`,
    ...[...leases]
      .sort((a, b) => b.microUsd - a.microUsd || a.leaseId.localeCompare(b.leaseId))
      .slice(0, TOP_LEASES)
      .map((lease) => `  ${lease.leaseId}  ${usd(lease.microUsd)}`),
  ];
}

export interface ThresholdAlert {
  readonly budget: Budget;
  readonly month: string;
  readonly key: string;
  readonly basis: AlertBasis;
  readonly threshold: number;
  readonly forecast: Forecast;
  readonly leases: readonly LeaseSpend[];
}

export function thresholdAlertMessage(alert: ThresholdAlert): BudgetAlertMessage {
  const { budget, month, basis, threshold, forecast } = alert;
  const measured = basis === 'actual' ? 'Spend so far has reached' : 'Forecast spend has reached';
  return {
    subject: subjectLine(
      `gpurent budget ${budget.name}: ${threshold}% of ${usd(budget.limitMicroUsd)} (${basis}, ${month})`,
    ),
    body: [
      `${measured} ${threshold}% of the monthly limit of budget "${budget.name}" (${scopeOf(budget)}, tenant ${budget.tenantId}, ${month}).`,
      '',
      `Limit:          ${usd(budget.limitMicroUsd)}`,
      `Spend so far:   ${usd(forecast.spendMicroUsd)}`,
      forecastLine(forecast),
      '',
      ...leaseLines(alert.leases),
      '',
      budget.action === 'notify'
        ? 'Action at 100%: notify only.'
        : `Action once actual spend reaches 100%: ${budget.action}.`,
    ].join('\n'),
    attributes: {
      tenant: budget.tenantId,
      budget: budget.name,
      month,
      alertId: alertIdOf(budget, month, alert.key),
      kind: 'threshold',
      threshold,
      basis,
    },
  };
}

export interface ActionNotice {
  readonly budget: Budget;
  readonly month: string;
  readonly key: string;
  readonly spendMicroUsd: MicroUsd;
  /** Leases released by `stop-interruptible`. */
  readonly releasedLeaseIds: readonly string[];
}

export function actionNoticeMessage(notice: ActionNotice): BudgetAlertMessage {
  const { budget, month } = notice;
  const what =
    budget.action === 'block-new-leases'
      ? `New leases in its scope are refused (402 BUDGET_EXCEEDED) until the month ends or the limit is raised.`
      : `Interruptible leases in its scope (spot and batch) are being released: ${notice.releasedLeaseIds.join(', ') || 'none running now'}; new ones will be released too while spend stays over the limit.`;
  return {
    subject: subjectLine(`gpurent budget ${budget.name}: limit reached, ${budget.action} (${month})`),
    body: [
      `Budget "${budget.name}" (${scopeOf(budget)}, tenant ${budget.tenantId}) has reached its monthly limit of ${usd(budget.limitMicroUsd)}: spend so far ${usd(notice.spendMicroUsd)}.`,
      what,
    ].join('\n'),
    attributes: {
      tenant: budget.tenantId,
      budget: budget.name,
      month,
      alertId: alertIdOf(budget, month, notice.key),
      kind: 'action',
    },
  };
}
