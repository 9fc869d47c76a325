import { describe, expect, it } from 'vitest';
import {
  baselineOf,
  emptyAnomalyState,
  type LeaseSpend,
  leasesDrivingAnomaly,
  observeSpend,
  type SpendAnomalyAlert,
  type SpendAnomalyState,
} from '../../../../shared/domain/waste/spend-anomaly';
import { atMinute, minuteOf, type SyntheticTenant, syntheticTenant } from './synthetic-spend';

const DAYS = 28;

/**
 * A rate as one lease running since long before: no recent start can explain
 * it, so the rate alone decides. Its instances cost $1/h, the cheapest GPU of
 * the synthetic tenants, the step its spend moves in.
 */
const asRunning = (rate: number) => [
  { leaseId: 'running', startedAtMs: 0, hourlyMicroUsd: rate, instanceHourlyMicroUsd: 1_000_000 },
];

function replay(tenant: SyntheticTenant, rates: readonly number[] = tenant.rates) {
  let state: SpendAnomalyState = emptyAnomalyState();
  const alerts: SpendAnomalyAlert[] = [];
  rates.forEach((rate, minute) => {
    const step = observeSpend(state, atMinute(tenant, minute), asRunning(rate));
    state = step.state;
    if (step.alert) alerts.push(step.alert);
  });
  return { state, alerts };
}

/** What the tenant normally spends at `minute`: the median rate at that time of day over the two weeks before. */
function normalAt(tenant: SyntheticTenant, minute: number): number {
  const sameTime = Array.from({ length: 14 }, (_, day) => tenant.rates[minute - (day + 1) * 1440] ?? 0);
  return sameTime.sort((a, b) => a - b)[7] as number;
}

/**
 * The replay with a runaway from `from` for `minutes`: on top of what it
 * spends, the tenant spends (factor - 1) times its normal rate, so it runs at
 * `factor` times normal.
 */
function injected(tenant: SyntheticTenant, from: number, minutes: number, factor: number): number[] {
  const extra = (factor - 1) * normalAt(tenant, from);
  return tenant.rates.map((rate, minute) =>
    minute >= from && minute < from + minutes ? rate + extra : rate,
  );
}

const SEEDS = [1, 2, 3, 4, 5];
const USD = 1_000_000;
/** About 50 leases running at once on average; much smaller tenants are noisier (see BENCHMARKS.md). */
const ARRIVALS = 0.2;

describe('spend anomaly baseline', () => {
  it.each(SEEDS)('raises nothing on the unmodified replay of synthetic tenant %i', (seed) => {
    expect(replay(syntheticTenant(seed, DAYS, ARRIVALS)).alerts).toEqual([]);
  });

  it.each(SEEDS)('a 5x spend jump gets exactly one alert within 3 metering runs (tenant %i)', (seed) => {
    const tenant = syntheticTenant(seed, DAYS, ARRIVALS);
    const jump = minuteOf(19, 14, 17);
    const { alerts } = replay(tenant, injected(tenant, jump, 120, 5));
    expect(alerts).toHaveLength(1);
    const runs = ((alerts[0]?.atMs ?? 0) - atMinute(tenant, jump)) / 60_000 + 1;
    expect(runs).toBeLessThanOrEqual(3);
    expect(alerts[0]?.startedAtMs).toBe(atMinute(tenant, jump));
  });

  it('never alerts a new tenant before a week of baseline exists', () => {
    const tenant = syntheticTenant(7, 6, ARRIVALS);
    expect(
      replay(
        tenant,
        tenant.rates.map((rate, m) => (m >= minuteOf(5, 10, 0) ? rate * 10 : rate)),
      ).alerts,
    ).toEqual([]);
  });

  it('adapts to a step that stays: the new level becomes normal and alerts stop', () => {
    const tenant = syntheticTenant(8, DAYS, ARRIVALS);
    const from = minuteOf(10, 9, 0);
    const { alerts, state } = replay(tenant, injected(tenant, from, tenant.rates.length, 5));
    expect(alerts.length).toBeGreaterThan(0);
    expect(alerts[0]?.startedAtMs).toBe(atMinute(tenant, from));
    // Half of the 14 days of history at the new level make it the median.
    expect(alerts.every((a) => a.atMs < atMinute(tenant, minuteOf(17, 9, 0)))).toBe(true);
    const noon = atMinute(tenant, minuteOf(27, 12, 0));
    const before = baselineOf(replay(syntheticTenant(8, DAYS, ARRIVALS)).state, noon);
    expect(baselineOf(state, noon)?.expected).toBeGreaterThan(
      2 * (before?.expected ?? Number.POSITIVE_INFINITY),
    );
  });

  it('lets the hour of the week raise the median but not widen the spread', () => {
    // Saturday 2026-11-07 12:00 UTC is hour of week 5 x 24 + 12 = 132 (hour 0 is Monday 00:00).
    const saturdayNoon = Date.UTC(2026, 10, 7, 12);
    const flat = emptyAnomalyState();
    const byHourOfDay = flat.byHourOfDay.map(() => Array.from({ length: 14 }, () => 100 * USD));
    const week = (values: readonly number[]) =>
      flat.byHourOfWeek.map((slot, hour) => (hour >= 131 && hour <= 133 ? values : slot));
    const z = 3.5 / 0.6745;
    // The delta method's line, m + z x 2 sqrt(m) x spread, with the spread 1,000 on the square-root scale.
    const line = (root: number) => (root * 1000) ** 2 + z * 2 * root * 1000 * 1000;
    // Daily peaks all $100/h: median 10,000 on the square-root scale, MAD 0, floored at a tenth of it.
    const daily = baselineOf({ byHourOfDay, byHourOfWeek: flat.byHourOfWeek }, saturdayNoon);
    expect(daily?.expected).toBe(100 * USD);
    expect(daily?.line).toBeCloseTo(line(10), 0);
    // Busy Saturdays ($400/h in two weeks, or noisy about it): the median doubles, the spread stays the daily one.
    const busy = baselineOf({ byHourOfDay, byHourOfWeek: week([400 * USD, 400 * USD]) }, saturdayNoon);
    expect(busy?.expected).toBe(400 * USD);
    expect(busy?.line).toBeCloseTo(line(20), 0);
    const noisy = baselineOf({ byHourOfDay, byHourOfWeek: week([100 * USD, 900 * USD]) }, saturdayNoon);
    expect(noisy?.expected).toBe(400 * USD);
    expect(noisy?.line).toBeCloseTo(line(20), 0);
    // Quiet Saturdays never lower the weekday baseline, and one week is not yet a weekly history.
    expect(baselineOf({ byHourOfDay, byHourOfWeek: week([4 * USD, 4 * USD]) }, saturdayNoon)).toEqual(daily);
    expect(baselineOf({ byHourOfDay, byHourOfWeek: week([900 * USD]) }, saturdayNoon)).toEqual(daily);
  });

  it('keeps a surge that hovers about the line one episode, and a surge after a return to normal a new one', () => {
    const startMs = Date.UTC(2026, 10, 2);
    const usual = 10_000_000;
    const flat = Array.from({ length: minuteOf(8, 12, 0) }, () => usual);
    let state: SpendAnomalyState = emptyAnomalyState();
    flat.forEach((rate, minute) => {
      state = observeSpend(state, startMs + minute * 60_000, asRunning(rate)).state;
    });
    const baseline = baselineOf(state, startMs + flat.length * 60_000);
    const line = baseline?.line ?? 0;
    const expected = baseline?.expected ?? 0;
    const high = 2 * line;
    // Under the line, so not in excess, but above the middle of expected and line: not calm either.
    const hovering = (line + (expected + line) / 2) / 2;
    const calm = expected;
    const surge = [
      ...Array.from({ length: 10 }, () => high),
      ...Array.from({ length: 40 }, () => hovering),
      ...Array.from({ length: 10 }, () => high),
      ...Array.from({ length: 30 }, () => calm),
      ...Array.from({ length: 10 }, () => high),
    ];
    const alerts: number[] = [];
    surge.forEach((rate, i) => {
      const step = observeSpend(state, startMs + (flat.length + i) * 60_000, asRunning(rate));
      state = step.state;
      if (step.alert) alerts.push(i);
    });
    expect(alerts).toEqual([2, 92]);
  });

  it("opens an excess only on a rise past the line, not on the line falling at an hour's turn", () => {
    // 14 days of hourly peaks: $10/h until 20:00, none from 20:00. Hour 20 takes its slot and hours 19 and 21:
    // 42 peaks, 28 of them 0, so median 0 and MAD 0 on the square-root scale; the line is the $1/h floor.
    // Hour 19 (hours 18-20): median sqrt(10e6) = 3,162, MAD 0 floored at 316: line 10e6 + 5.19 x 2 x 3,162 x 316,
    // about $20.38/h.
    const flat = emptyAnomalyState();
    const byHourOfDay = flat.byHourOfDay.map((_, hour) =>
      Array.from({ length: 14 }, () => (hour < 20 ? 10 * USD : 0)),
    );
    const state: SpendAnomalyState = { ...flat, byHourOfDay };
    const day = Date.UTC(2026, 10, 16);
    const at = (minute: number) => day + 19 * 3_600_000 + minute * 60_000;
    expect(baselineOf(state, at(60))).toEqual({ expected: 0, line: USD });
    expect((baselineOf(state, at(0))?.line ?? 0) / USD).toBeCloseTo(20.38, 2);
    /** Runs from 19:50 to 20:19 (minutes 50-79 after 19:00): the minutes alerted. */
    const run = (leases: (minute: number) => LeaseSpend[]) => {
      let s = state;
      const alerts: number[] = [];
      for (let minute = 50; minute < 80; minute++) {
        const step = observeSpend(s, at(minute), leases(minute));
        s = step.state;
        if (step.alert) alerts.push(minute);
      }
      return alerts;
    };
    const lease = (leaseId: string, startedAtMs: number, usdPerHour: number): LeaseSpend => ({
      leaseId,
      startedAtMs,
      hourlyMicroUsd: usdPerHour * USD,
    });
    // A $10/h lease since 15:00 is ten times the line from 20:00 on, but it was under hour 19's: no alert.
    const afternoon = lease('afternoon', at(-240), 10);
    expect(run(() => [afternoon])).toEqual([]);
    // A $3/h lease started at 20:10 on a rate of 0 rises past the line: alerted on its third run.
    expect(run((minute) => (minute >= 70 ? [lease('evening', at(70), 3)] : []))).toEqual([72]);
    // One lease growing from $10/h to $40/h at 19:55 (no new start) rises past hour 19's line.
    expect(run((minute) => [lease('growing', at(-240), minute >= 55 ? 40 : 10)])).toEqual([57]);
  });

  it('counts an excess in whole instances: less than the cheapest instance over the line is the line rounded', () => {
    // 14 days of $10/h peaks every hour: expected $10/h, line 10e6 + 5.19 x 2 x 3,162 x 316, about $20.38/h.
    const flat = emptyAnomalyState();
    const hourly = (usd: number) => ({
      ...flat,
      byHourOfDay: flat.byHourOfDay.map(() => Array(14).fill(usd * USD)),
    });
    const hour = Date.UTC(2026, 10, 16, 12);
    const instances = (leaseId: string, count: number, usdEach: number): LeaseSpend => ({
      leaseId,
      startedAtMs: 0,
      hourlyMicroUsd: count * usdEach * USD,
      instanceHourlyMicroUsd: usdEach * USD,
    });
    /** Ten runs from the hour's start with these leases: the minutes alerted. */
    const alertedMinutes = (state: SpendAnomalyState, leases: LeaseSpend[]) => {
      let s = state;
      const alerts: number[] = [];
      for (let minute = 0; minute < 10; minute++) {
        const step = observeSpend(s, hour + minute * 60_000, leases);
        s = step.state;
        if (step.alert) alerts.push(minute);
      }
      return alerts;
    };
    const busy = hourly(10);
    expect((baselineOf(busy, hour)?.line ?? 0) / USD).toBeCloseTo(20.38, 2);
    // 20 instances of $1/h and one of $0.90/h: $20.90/h, half an instance over the line.
    expect(alertedMinutes(busy, [instances('base', 20, 1), instances('small', 1, 0.9)])).toEqual([]);
    // 21 instances of $1/h are $0.62/h over it, under one instance: not in excess; 22 are $1.62/h over: alerted
    // on the third run.
    expect(alertedMinutes(busy, [instances('base', 21, 1)])).toEqual([]);
    expect(alertedMinutes(busy, [instances('base', 22, 1)])).toEqual([2]);
    // A tenant that runs nothing at this hour (line: the $1/h floor): one $32/h instance is in excess,
    // the step never more than the line's own margin.
    expect(alertedMinutes(hourly(0), [instances('big', 1, 32)])).toEqual([2]);
  });

  it('keeps its state as plain data: a replay resumed from JSON decides the same', () => {
    const tenant = syntheticTenant(9, DAYS, ARRIVALS);
    const rates = injected(tenant, minuteOf(20, 3, 0), 30, 6);
    const half = minuteOf(14, 0, 0);
    let state = emptyAnomalyState();
    for (let minute = 0; minute < half; minute++) {
      state = observeSpend(state, atMinute(tenant, minute), asRunning(rates[minute] as number)).state;
    }
    state = JSON.parse(JSON.stringify(state)) as SpendAnomalyState;
    const alerts: SpendAnomalyAlert[] = [];
    for (let minute = half; minute < rates.length; minute++) {
      const step = observeSpend(state, atMinute(tenant, minute), asRunning(rates[minute] as number));
      state = step.state;
      if (step.alert) alerts.push(step.alert);
    }
    // The same alerts as the replay that never stopped, from the resumed minute on.
    const resumedAtMs = atMinute(tenant, half);
    expect(alerts).toEqual(replay(tenant, rates).alerts.filter((alert) => alert.atMs >= resumedAtMs));
    expect(alerts).toHaveLength(1);
  });

  it('names the leases started around the excess, dearest first', () => {
    const leases = [
      { leaseId: 'old', startedAtMs: 0, hourlyMicroUsd: 9_000_000 },
      { leaseId: 'new-small', startedAtMs: 10_000_000, hourlyMicroUsd: 1_000_000 },
      { leaseId: 'new-big', startedAtMs: 10_000_000, hourlyMicroUsd: 30_000_000 },
    ];
    expect(leasesDrivingAnomaly(leases, { startedAtMs: 10_060_000 }).map((l) => l.leaseId)).toEqual([
      'new-big',
      'new-small',
    ]);
    expect(leasesDrivingAnomaly(leases, { startedAtMs: 99_000_000 }).map((l) => l.leaseId)[0]).toBe(
      'new-big',
    );
  });
});
