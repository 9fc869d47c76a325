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

/** One lease per tenant whose instance costs what the series spends at that minute, plus a runaway lease. */
function instancesAt(rate: number, extra: number, extraSinceMs: number): LeaseInstance[] {
  const base = {
    tenantId: TENANT,
    project: 'vision',
    mode: 'on-demand',
    instanceType: 'g5.xlarge',
    region: 'us-east-1',
  };
  const instances = [
    { ...base, leaseId: BASE, instanceId: 'i-base', priceMicroUsdPerHour: rate, launchedAtMs: 0 },
  ];
  if (extra > 0) {
    instances.push({
      ...base,
      leaseId: RUNAWAY,
      instanceId: 'i-runaway',
      priceMicroUsdPerHour: extra,
      launchedAtMs: extraSinceMs,
    });
  }
  return instances as unknown as LeaseInstance[];
}

/** Drives the use case once a minute (one metering run each) over the replay, with the clock the runs carry. */
async function replay(tenant: SyntheticTenant, jump?: { from: number; factor: number }) {
  const anomalies = new FakeSpendAnomalyStore();
  const notifier = new FakeAnomalyNotifier();
  const events = new FakeEventPublisher();
  const normal = jump ? (tenant.rates[jump.from - 1] ?? 0) : 0;
  let current: LeaseInstance[] = [];
  const alertMinutes: number[] = [];
  const deps = { leases: { openInstances: async () => current }, anomalies, notifier, events };
  for (let minute = 0; minute < tenant.rates.length; minute++) {
    const inJump = jump !== undefined && minute >= jump.from && minute < jump.from + 120;
    const extra = inJump ? Math.max((jump.factor - 1) * normal, 4_000_000 * jump.factor) : 0;
    current = instancesAt(tenant.rates[minute] ?? 0, extra, atMinute(tenant, jump?.from ?? 0));
    const before = notifier.messages.length;
    await detectSpendAnomalies(deps, atMinute(tenant, minute));
    if (notifier.messages.length > before) alertMinutes.push(minute);
  }
  return { notifier, events, anomalies, alertMinutes };
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
    const notifier = new FakeAnomalyNotifier();
    let current: LeaseInstance[] = [];
    const deps = {
      leases: { openInstances: async () => current },
      anomalies,
      notifier,
      events: new FakeEventPublisher(),
    };
    for (let minute = 0; minute < tenant.rates.length; minute++) {
      const extra = minute >= from && minute < from + 120 ? 4 * (tenant.rates[from - 1] ?? 0) : 0;
      current = instancesAt(tenant.rates[minute] ?? 0, extra, atMinute(tenant, from));
      await detectSpendAnomalies(deps, atMinute(tenant, minute));
    }
    expect(notifier.messages.map((m) => m.attributes.project)).toEqual([undefined]);
  });

  it('judges a lease that grows by its cheapest instance: one instance over the line is an excess', async () => {
    // A week and a day of one lease of ten $1/h instances: line about $20.38/h at every hour (expected $10/h).
    const grownAt = minuteOf(8, 12, 0);
    const alertsWhenGrownTo = async (count: number) => {
      const notifier = new FakeAnomalyNotifier();
      const deps = {
        leases: { openInstances: async () => current },
        anomalies: new FakeSpendAnomalyStore(),
        notifier,
        events: new FakeEventPublisher(),
      };
      let current: LeaseInstance[] = [];
      const alertMinutes: number[] = [];
      for (let minute = 0; minute < grownAt + 10; minute++) {
        const instances = minute < grownAt ? 10 : count;
        current = Array.from({ length: instances }, (_, i) => ({
          tenantId: TENANT,
          leaseId: BASE,
          instanceId: `i-${i}`,
          instanceType: 'g5.xlarge',
          mode: 'on-demand',
          region: 'us-east-1',
          priceMicroUsdPerHour: 1_000_000,
          launchedAtMs: i < 10 ? 0 : atMinute(tenant, grownAt),
        })) as unknown as LeaseInstance[];
        const before = notifier.messages.length;
        await detectSpendAnomalies(deps, atMinute(tenant, minute));
        if (notifier.messages.length > before) alertMinutes.push(minute - grownAt);
      }
      return alertMinutes;
    };
    // 21 instances are $0.62/h over the line, less than one instance; 22 are $1.62/h over: the third run alerts.
    expect(await alertsWhenGrownTo(21)).toEqual([]);
    expect(await alertsWhenGrownTo(22)).toEqual([2]);
  });
});
