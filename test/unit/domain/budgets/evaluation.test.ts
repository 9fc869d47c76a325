import { describe, expect, it } from 'vitest';
import { alertIdOf, thresholdAlertMessage } from '../../../../shared/domain/budgets/alert-message';
import type { AlertRecord, Budget } from '../../../../shared/domain/budgets/budget';
import {
  CLAIM_GRACE_MS,
  evaluateBudget,
  rearmedAlertKeys,
} from '../../../../shared/domain/budgets/evaluation';
import { forecastMonthEnd } from '../../../../shared/domain/budgets/forecast';
import { runRates } from '../../../../shared/domain/budgets/run-rate';
import { monthBounds, monthOf, monthOfCharge, spendScopesOf } from '../../../../shared/domain/spend';

const NOW = Date.parse('2026-11-20T12:00:00Z');
const MONTH = '2026-11';

function budget(overrides: Partial<Budget> = {}): Budget {
  return {
    tenantId: 'acme',
    name: 'gpu',
    limitMicroUsd: 1_000_000_000, // $1,000
    thresholds: [50, 80, 100],
    basis: 'both',
    action: 'notify',
    revision: 1,
    createdAtMs: NOW - 86_400_000,
    updatedAtMs: NOW - 86_400_000,
    alerts: {},
    ...overrides,
  };
}

const record = (overrides: Partial<AlertRecord> = {}): AlertRecord => ({
  kind: 'threshold',
  basis: 'actual',
  threshold: 50,
  alertId: 'a',
  claimedAtMs: NOW - 60_000,
  sentAtMs: NOW - 59_000,
  valueMicroUsd: 500_000_000,
  limitMicroUsd: 1_000_000_000,
  ...overrides,
});

const usd = (value: number) => value * 1_000_000;

describe('threshold crossings', () => {
  it('crosses each threshold whose measure reached it, per basis', () => {
    const evaluation = evaluateBudget(
      budget(),
      MONTH,
      { actualMicroUsd: usd(810), forecastMicroUsd: usd(1_200) },
      NOW,
    );
    expect(evaluation.crossings.map((c) => c.key)).toEqual([
      'actual#50',
      'actual#80',
      'forecast#50',
      'forecast#80',
      'forecast#100',
    ]);
    expect(evaluation.overLimit).toBe(false);
  });

  it('counts exactly reaching a threshold as crossing it, one micro-dollar below as not', () => {
    const at = evaluateBudget(
      budget({ basis: 'actual' }),
      MONTH,
      { actualMicroUsd: usd(500), forecastMicroUsd: 0 },
      NOW,
    );
    const below = evaluateBudget(
      budget({ basis: 'actual' }),
      MONTH,
      { actualMicroUsd: usd(500) - 1, forecastMicroUsd: 0 },
      NOW,
    );
    expect(at.crossings.map((c) => c.key)).toEqual(['actual#50']);
    expect(below.crossings).toEqual([]);
  });

  it('rounds a threshold amount up: 1% of $0.000150 is 2 µ$, not 1', () => {
    const tiny = budget({ limitMicroUsd: 150, thresholds: [1], basis: 'actual' });
    expect(evaluateBudget(tiny, MONTH, { actualMicroUsd: 1, forecastMicroUsd: 0 }, NOW).crossings).toEqual(
      [],
    );
    expect(
      evaluateBudget(tiny, MONTH, { actualMicroUsd: 2, forecastMicroUsd: 0 }, NOW).crossings,
    ).toHaveLength(1);
  });

  it('skips thresholds already alerted this month, and starts clean in a new month', () => {
    const alerted = budget({ alertMonth: MONTH, alerts: { 'actual#50': record() } });
    const measures = { actualMicroUsd: usd(600), forecastMicroUsd: 0 };
    expect(evaluateBudget({ ...alerted, basis: 'actual' }, MONTH, measures, NOW).crossings).toEqual([]);
    expect(
      evaluateBudget({ ...alerted, basis: 'actual' }, '2026-12', measures, NOW).crossings.map((c) => c.key),
    ).toEqual(['actual#50']);
  });

  it('watches only the basis asked for', () => {
    const measures = { actualMicroUsd: usd(100), forecastMicroUsd: usd(900) };
    expect(evaluateBudget(budget({ basis: 'actual' }), MONTH, measures, NOW).crossings).toEqual([]);
    expect(
      evaluateBudget(budget({ basis: 'forecast' }), MONTH, measures, NOW).crossings.map((c) => c.key),
    ).toEqual(['forecast#50', 'forecast#80']);
  });

  it('makes the limit action due once actual spend reaches 100%, never on the forecast alone', () => {
    const blocking = budget({ action: 'block-new-leases' });
    expect(
      evaluateBudget(blocking, MONTH, { actualMicroUsd: usd(999), forecastMicroUsd: usd(5_000) }, NOW)
        .actionDue,
    ).toBe(false);
    expect(
      evaluateBudget(blocking, MONTH, { actualMicroUsd: usd(1_000), forecastMicroUsd: 0 }, NOW).actionDue,
    ).toBe(true);
    expect(
      evaluateBudget(budget(), MONTH, { actualMicroUsd: usd(2_000), forecastMicroUsd: 0 }, NOW).actionDue,
    ).toBe(false);
    const taken = { ...blocking, alertMonth: MONTH, alerts: { action: record({ kind: 'action' }) } };
    expect(
      evaluateBudget(taken, MONTH, { actualMicroUsd: usd(1_500), forecastMicroUsd: 0 }, NOW),
    ).toMatchObject({
      actionDue: false,
      overLimit: true,
    });
  });

  it('hands over claims left unsent once they are older than the grace period', () => {
    const fresh = record({ claimedAtMs: NOW - CLAIM_GRACE_MS + 1, sentAtMs: undefined });
    const stale = record({ threshold: 80, claimedAtMs: NOW - CLAIM_GRACE_MS, sentAtMs: undefined });
    const withClaims = budget({ alertMonth: MONTH, alerts: { 'actual#50': fresh, 'actual#80': stale } });
    const evaluation = evaluateBudget(
      withClaims,
      MONTH,
      { actualMicroUsd: usd(900), forecastMicroUsd: usd(600) },
      NOW,
    );
    expect(evaluation.unfinished.map((u) => u.key)).toEqual(['actual#80']);
    expect(evaluation.crossings.map((c) => c.key)).toEqual(['forecast#50']);
  });
});

describe('re-arming on a change of settings', () => {
  const fired = budget({
    alertMonth: MONTH,
    alerts: {
      'actual#50': record(),
      'actual#80': record({ threshold: 80 }),
      'forecast#100': record({ basis: 'forecast', threshold: 100 }),
      action: record({ kind: 'action', basis: undefined, threshold: undefined }),
    },
    action: 'block-new-leases',
  });
  const measures = { actualMicroUsd: usd(1_000), forecastMicroUsd: usd(1_900) };

  it('raising the limit above the spend arms again the thresholds no longer crossed, and lifts the action', () => {
    const raised = { ...fired, limitMicroUsd: usd(1_500) };
    // $1,000 spent of $1,500: 50% ($750) stays crossed, 80% ($1,200) does not; the forecast still exceeds 100%.
    expect(rearmedAlertKeys(fired, raised, MONTH, measures).sort()).toEqual(['action', 'actual#80']);
  });

  it('lowering the limit, or keeping it, voids nothing', () => {
    expect(rearmedAlertKeys(fired, { ...fired, limitMicroUsd: usd(900) }, MONTH, measures)).toEqual([]);
    expect(rearmedAlertKeys(fired, fired, MONTH, { actualMicroUsd: 0, forecastMicroUsd: 0 })).toEqual([]);
  });

  it('drops records of thresholds no longer watched, and all of them when the project scope changes', () => {
    expect(rearmedAlertKeys(fired, { ...fired, thresholds: [50, 100] }, MONTH, measures)).toEqual([
      'actual#80',
    ]);
    expect(rearmedAlertKeys(fired, { ...fired, basis: 'actual' }, MONTH, measures)).toEqual(['forecast#100']);
    expect(rearmedAlertKeys(fired, { ...fired, project: 'vision' }, MONTH, measures)).toHaveLength(4);
  });

  it('has nothing to re-arm once the month has turned', () => {
    expect(rearmedAlertKeys(fired, { ...fired, limitMicroUsd: usd(5_000) }, '2026-12', measures)).toEqual([]);
  });
});

describe('forecast', () => {
  it('adds the run rate for the hours left in the month (UTC)', () => {
    // 2026-11-20T12:00Z → 10.5 days = 252 h left; $2.50/h.
    const forecast = forecastMonthEnd(usd(100), 2_500_000, NOW);
    expect(forecast.secondsLeft).toBe(252 * 3600);
    expect(forecast.microUsd).toBe(usd(100) + 252 * 2_500_000);
  });

  it('prices a part hour to the micro-dollar and is only spend at the last instant', () => {
    const nearEnd = Date.parse('2026-11-30T23:59:30Z');
    expect(forecastMonthEnd(0, 3_600_000, nearEnd).microUsd).toBe(30_000);
    expect(forecastMonthEnd(42, 3_600_000, Date.parse('2026-12-01T00:00:00Z') - 1).microUsd).toBe(42);
  });

  it('stays exact for a fleet costing $100,000 an hour over a whole month', () => {
    const forecast = forecastMonthEnd(0, usd(100_000), Date.parse('2026-12-01T00:00:00Z'));
    expect(forecast.microUsd).toBe(31 * 24 * usd(100_000));
    expect(Number.isSafeInteger(forecast.microUsd)).toBe(true);
  });

  it('sums run rates per tenant and per project', () => {
    const rateOf = runRates([
      { tenantId: 'a', project: 'x', priceMicroUsdPerHour: 100 },
      { tenantId: 'a', priceMicroUsdPerHour: 10 },
      { tenantId: 'b', project: 'x', priceMicroUsdPerHour: 1 },
    ]);
    expect([rateOf('a'), rateOf('a', 'x'), rateOf('a', 'y'), rateOf('b', 'x'), rateOf('c')]).toEqual([
      110, 100, 0, 1, 0,
    ]);
  });
});

describe('spend counters', () => {
  it('counts a charge for the tenant, its mode and its project', () => {
    expect(spendScopesOf({ mode: 'spot', project: 'p' })).toEqual([
      { kind: 'tenant' },
      { kind: 'mode', mode: 'spot' },
      { kind: 'project', project: 'p' },
    ]);
    expect(spendScopesOf({ mode: 'spot' })).toHaveLength(2);
  });

  it('puts a charge up to midnight on the 1st into the month before', () => {
    expect(monthOfCharge(Date.parse('2026-12-01T00:00:00Z'))).toBe('2026-11');
    expect(monthOfCharge(Date.parse('2026-12-01T00:00:01Z'))).toBe('2026-12');
    expect(monthOf(Date.parse('2026-12-01T00:00:00Z'))).toBe('2026-12');
    expect(monthBounds('2026-12')).toEqual({
      startMs: Date.parse('2026-12-01T00:00:00Z'),
      endMs: Date.parse('2027-01-01T00:00:00Z'),
    });
  });
});

describe('alert messages', () => {
  it('give the same alert the same id, and a re-armed or recreated budget new ones', () => {
    const b = budget();
    expect(alertIdOf(b, MONTH, 'actual#50')).toBe(alertIdOf(b, MONTH, 'actual#50'));
    const ids = new Set([
      alertIdOf(b, MONTH, 'actual#50'),
      alertIdOf(b, MONTH, 'actual#80'),
      alertIdOf(b, '2026-12', 'actual#50'),
      alertIdOf({ ...b, revision: 2 }, MONTH, 'actual#50'),
      alertIdOf({ ...b, createdAtMs: b.createdAtMs + 1 }, MONTH, 'actual#50'),
    ]);
    expect(ids.size).toBe(5);
  });

  it('say spend, limit, how the forecast was made and the five costliest leases', () => {
    const message = thresholdAlertMessage({
      budget: budget({ project: 'vision' }),
      month: MONTH,
      key: 'forecast#80',
      basis: 'forecast',
      threshold: 80,
      forecast: forecastMonthEnd(usd(300), usd(2), NOW),
      leases: [1, 2, 3, 4, 5, 6].map((n) => ({ leaseId: `lease-${n}`, microUsd: usd(n * 10) })),
    });
    expect(message.subject).toBe('gpurent budget gpu: 80% of $1000.00 (forecast, 2026-11)');
    expect(message.body).toContain('Forecast spend has reached 80%');
    expect(message.body).toContain('project vision');
    expect(message.body).toContain(
      '$804.00 = spend so far $300.00 + running leases at $2.00/h x 252.0 h left',
    );
    const listed = message.body.split('\n').filter((line) => line.startsWith('  lease-'));
    expect(listed.map((line) => line.trim().split(/\s+/)[0])).toEqual([
      'lease-6',
      'lease-5',
      'lease-4',
      'lease-3',
      'lease-2',
    ]);
    expect(message.attributes).toMatchObject({
      tenant: 'acme',
      budget: 'gpu',
      threshold: 80,
      basis: 'forecast',
      month: MONTH,
    });
  });

  it('keeps subjects within the 100 characters SNS allows', () => {
    const long = budget({ name: 'x'.repeat(64), limitMicroUsd: usd(999_999_999) });
    const message = thresholdAlertMessage({
      budget: long,
      month: MONTH,
      key: 'actual#1000',
      basis: 'actual',
      threshold: 1000,
      forecast: forecastMonthEnd(0, 0, NOW),
      leases: [],
    });
    expect(message.subject.length).toBeLessThanOrEqual(100);
  });
});
