import { describe, expect, it } from 'vitest';
import type { LeaseInstance } from '../../../shared/domain/lease';
import { detectSpendAnomalies } from '../../../shared/usecases/spend-anomalies';
import { FakeEventPublisher } from '../../support/fakes/messaging';
import { FakeAnomalyNotifier, FakeSpendAnomalyStore } from '../../support/fakes/spend-anomalies';
import { atMinute, minuteOf, type SyntheticTenant, syntheticTenant } from '../domain/waste/synthetic-spend';

const TENANT = 'tenant-a';
const BASE = `lease_${'0'.repeat(26)}`;
const RUNAWAY = `lease_${'1'.repeat(26)}`;
const DAYS = 10;

/** One instance of the tenant's project, on the clock's `launchedAtMs`. */
function instance(leaseId: string, instanceId: string, priceMicroUsdPerHour: number, launchedAtMs: number) {
  return {
    tenantId: TENANT,
    project: 'vision',
    mode: 'on-demand',
    instanceType: 'g5.xlarge',
    region: 'us-east-1',
    leaseId,
    instanceId,
    priceMicroUsdPerHour,
    launchedAtMs,
  } as unknown as LeaseInstance;
}

/** One lease per tenant whose instance costs what the series spends at that minute, plus a runaway lease. */
function instancesAt(rate: number, extra: number, extraSinceMs: number): LeaseInstance[] {
  const instances = [instance(BASE, 'i-base', rate, 0)];
  if (extra > 0) instances.push(instance(RUNAWAY, 'i-runaway', extra, extraSinceMs));
  return instances;
}

/**
 * Drives the use case once a minute (one metering run each) for `minutes`,
 * with the clock the runs carry and `instancesOf(minute)` open: the minutes alerted.
 */
async function runMinutes(
  tenant: SyntheticTenant,
  minutes: number,
  instancesOf: (minute: number) => LeaseInstance[],
  anomalies = new FakeSpendAnomalyStore(),
) {
  const notifier = new FakeAnomalyNotifier();
  const events = new FakeEventPublisher();
  let current: LeaseInstance[] = [];
  const alertMinutes: number[] = [];
  const deps = { leases: { openInstances: async () => current }, anomalies, notifier, events };
  for (let minute = 0; minute < minutes; minute++) {
    current = instancesOf(minute);
    const before = notifier.messages.length;
    await detectSpendAnomalies(deps, atMinute(tenant, minute));
    if (notifier.messages.length > before) alertMinutes.push(minute);
  }
  return { notifier, events, anomalies, alertMinutes };
}

/** The replay, with a `factor` x jump for two hours from `jump.from`. */
function replay(tenant: SyntheticTenant, jump?: { from: number; factor: number }) {
  const normal = jump ? (tenant.rates[jump.from - 1] ?? 0) : 0;
  return runMinutes(tenant, tenant.rates.length, (minute) => {
    const inJump = jump !== undefined && minute >= jump.from && minute < jump.from + 120;
    const extra = inJump ? Math.max((jump.factor - 1) * normal, 4_000_000 * jump.factor) : 0;
    return instancesAt(tenant.rates[minute] ?? 0, extra, atMinute(tenant, jump?.from ?? 0));
  });
}

describe('spend anomalies on metering runs', { timeout: 60_000 }, () => {
  const tenant = syntheticTenant(3, DAYS, 0.2);
  const from = minuteOf(8, 14, 17);

  it('a 5x spend jump into a replayed baseline gets exactly one alert, within 3 runs, naming the runaway lease', async () => {
    const { notifier, events, alertMinutes } = await replay(tenant, { from, factor: 5 });
    // Both series alert on the third run in excess: from, from + 1, from + 2.
    expect(alertMinutes).toEqual([from + 2]);
    const projectAlerts = notifier.messages.filter((m) => m.attributes.project === 'vision');
    const tenantAlerts = notifier.messages.filter((m) => m.attributes.project === undefined);
    expect([projectAlerts.length, tenantAlerts.length]).toEqual([1, 1]);
    expect(tenantAlerts[0]?.attributes).toMatchObject({ tenant: TENANT, kind: 'anomaly', month: '2026-11' });
    const [event] = events.ofType('SpendAnomaly').filter((e) => e.detail.project === undefined);
    expect(event?.detail.startedAtMs).toBe(atMinute(tenant, from));
    expect(event?.detail.leaseIds[0]).toBe(RUNAWAY);
    expect(event?.detail.alertId).toBe(tenantAlerts[0]?.attributes.alertId);
    expect(tenantAlerts[0]?.body).toContain(RUNAWAY);
  });

  it('raises nothing on the unmodified replay', async () => {
    const { notifier, events } = await replay(tenant);
    expect(notifier.messages).toEqual([]);
    expect(events.ofType('SpendAnomaly')).toEqual([]);
  });

  it('raises nothing for a project whose tenant turned anomalies off, and keeps the tenant-wide alert', async () => {
    const anomalies = new FakeSpendAnomalyStore();
    await anomalies.putSettings(TENANT, 'vision', { enabled: false, sensitivity: 'medium' });
    const { notifier } = await runMinutes(
      tenant,
      tenant.rates.length,
      (minute) => {
        const extra = minute >= from && minute < from + 120 ? 4 * (tenant.rates[from - 1] ?? 0) : 0;
        return instancesAt(tenant.rates[minute] ?? 0, extra, atMinute(tenant, from));
      },
      anomalies,
    );
    expect(notifier.messages.map((m) => m.attributes.project)).toEqual([undefined]);
  });

  it('judges a lease that grows by its cheapest instance: one instance over the line is an excess', async () => {
    // A week and a day of one lease of ten $1/h instances: line about $20.38/h at every hour (expected $10/h).
    const grownAt = minuteOf(8, 12, 0);
    const alertsWhenGrownTo = async (count: number) => {
      const { alertMinutes } = await runMinutes(tenant, grownAt + 10, (minute) =>
        Array.from({ length: minute < grownAt ? 10 : count }, (_, i) =>
          instance(BASE, `i-${i}`, 1_000_000, i < 10 ? 0 : atMinute(tenant, grownAt)),
        ),
      );
      return alertMinutes.map((minute) => minute - grownAt);
    };
    // 21 instances are $0.62/h over the line, less than one instance; 22 are $1.62/h over: the third run alerts.
    expect(await alertsWhenGrownTo(21)).toEqual([]);
    expect(await alertsWhenGrownTo(22)).toEqual([2]);
  });
});
