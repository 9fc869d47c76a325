import type { LeaseInstance } from '../domain/lease';
import { spendAnomalyMessage } from '../domain/waste/anomaly-message';
import {
  DEFAULT_ANOMALY_PARAMS,
  emptyAnomalyState,
  type LeaseSpend,
  leasesDrivingAnomaly,
  observeSpend,
  type SpendAnomalySettings,
} from '../domain/waste/spend-anomaly';
import type { DomainEventPublisher } from '../ports/domain-events';
import type { LeaseRepository } from '../ports/lease-repository';
import type { AnomalyNotifier, SpendAnomalyStore, StoredSpendSeries } from '../ports/spend-anomalies';

/** A claimed alert not yet on the topic after this long is taken over (its run died). */
export const ANOMALY_CLAIM_GRACE_MS = 2 * 60_000;

export interface SpendAnomalyDeps {
  readonly leases: Pick<LeaseRepository, 'openInstances'>;
  readonly anomalies: SpendAnomalyStore;
  readonly notifier: AnomalyNotifier;
  readonly events: DomainEventPublisher;
}

const seriesKey = (tenantId: string, project?: string) => `${tenantId}\n${project ?? ''}`;

/** Each series' running leases now: the tenant's, and each project's. */
function spendBySeries(instances: readonly LeaseInstance[]): Map<string, LeaseSpend[]> {
  const byLease = new Map<string, { tenantId: string; project?: string | undefined; spend: LeaseSpend }>();
  for (const i of instances) {
    const known = byLease.get(i.leaseId);
    const startedAtMs = Math.min(known?.spend.startedAtMs ?? i.launchedAtMs, i.launchedAtMs);
    const hourlyMicroUsd = (known?.spend.hourlyMicroUsd ?? 0) + i.priceMicroUsdPerHour;
    const instanceHourlyMicroUsd = Math.min(
      known?.spend.instanceHourlyMicroUsd ?? i.priceMicroUsdPerHour,
      i.priceMicroUsdPerHour,
    );
    byLease.set(i.leaseId, {
      tenantId: i.tenantId,
      project: i.project,
      spend: { leaseId: i.leaseId, startedAtMs, hourlyMicroUsd, instanceHourlyMicroUsd },
    });
  }
  const series = new Map<string, LeaseSpend[]>();
  const add = (key: string, spend: LeaseSpend) => series.set(key, [...(series.get(key) ?? []), spend]);
  for (const { tenantId, project, spend } of byLease.values()) {
    add(seriesKey(tenantId), spend);
    if (project) add(seriesKey(tenantId, project), spend);
  }
  return series;
}

/**
 * One metering run's look at every tenant's and project's spend rate: each
 * series' baseline advances (stored state, one conditional save per series),
 * and a sustained excess raises the one alert of its episode: claimed in the
 * same save, then SNS, the `SpendAnomaly` event, and the claim cleared. A
 * series turned off in its settings is not observed; a new one alerts only
 * once its baseline exists (the detector's `minHistoryDays`).
 */
export async function detectSpendAnomalies(
  deps: SpendAnomalyDeps,
  atMs: number,
): Promise<{ alerts: number }> {
  const [instances, stored] = await Promise.all([deps.leases.openInstances(), deps.anomalies.all()]);
  const spend = spendBySeries(instances);
  const known = new Map(stored.map((s) => [seriesKey(s.tenantId, s.project), s]));
  for (const key of spend.keys()) {
    if (known.has(key)) continue;
    const [tenantId = '', project] = key.split('\n');
    known.set(key, { tenantId, project: project || undefined, state: emptyAnomalyState(), version: 0 });
  }
  const settingsOf = new Map<string, Promise<Readonly<Record<string, SpendAnomalySettings>>>>();
  let alerts = 0;
  for (const [key, series] of known) {
    if (!settingsOf.has(series.tenantId))
      settingsOf.set(series.tenantId, deps.anomalies.settings(series.tenantId));
    const settings = await settingsOf.get(series.tenantId);
    const own = settings?.[series.project ?? ''] ?? settings?.[''];
    if (own?.enabled === false) continue;
    if (await observe(deps, series, spend.get(key) ?? [], atMs, own)) alerts += 1;
  }
  return { alerts };
}

async function observe(
  deps: SpendAnomalyDeps,
  series: StoredSpendSeries,
  leases: readonly LeaseSpend[],
  atMs: number,
  settings: SpendAnomalySettings | undefined,
): Promise<boolean> {
  const params = { ...DEFAULT_ANOMALY_PARAMS, sensitivity: settings?.sensitivity ?? 'medium' };
  const step = observeSpend(series.state, atMs, leases, params);
  const pending = series.pendingAlert;
  // A claim whose run died before the publish is taken over after the grace (same alert id).
  const takeOver =
    step.alert === undefined && pending !== undefined && atMs - pending.claimedAtMs >= ANOMALY_CLAIM_GRACE_MS;
  const pendingAlert = step.alert
    ? { alert: step.alert, leases: leasesDrivingAnomaly(leases, step.alert), claimedAtMs: atMs }
    : takeOver
      ? { ...pending, claimedAtMs: atMs }
      : pending;
  const claimed: StoredSpendSeries = {
    ...series,
    state: step.state,
    pendingAlert,
    version: series.version + 1,
  };
  if (!(await deps.anomalies.save(claimed))) return false;
  if (!(step.alert || takeOver) || pendingAlert === undefined) return false;
  const { alert, leases: driving } = pendingAlert;
  const message = spendAnomalyMessage(series.tenantId, series.project, alert, driving);
  await deps.notifier.publish(message);
  await deps.events.publish([
    {
      type: 'SpendAnomaly',
      tenantId: series.tenantId,
      detail: {
        project: series.project,
        startedAtMs: alert.startedAtMs,
        rateMicroUsdPerHour: alert.rateMicroUsdPerHour,
        expectedMicroUsdPerHour: alert.expectedMicroUsdPerHour,
        lineMicroUsdPerHour: alert.lineMicroUsdPerHour,
        leaseIds: driving.map((lease) => lease.leaseId),
        alertId: message.attributes.alertId,
      },
    },
  ]);
  await deps.anomalies.save({ ...claimed, pendingAlert: undefined, version: claimed.version + 1 });
  return true;
}
