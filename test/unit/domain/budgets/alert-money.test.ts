import { describe, expect, it } from 'vitest';
import { thresholdAlertMessage } from '../../../../shared/domain/budgets/alert-message';
import type { Budget } from '../../../../shared/domain/budgets/budget';
import { forecastMonthEnd } from '../../../../shared/domain/budgets/forecast';

const NOW = Date.parse('2026-11-20T12:00:00Z');

const budget: Budget = {
  tenantId: 'acme',
  name: 'demo',
  limitMicroUsd: 50_000,
  thresholds: [50],
  basis: 'actual',
  action: 'notify',
  revision: 1,
  createdAtMs: NOW - 86_400_000,
  updatedAtMs: NOW - 86_400_000,
  alerts: {},
};

describe('budget alert money: rounded to the cent, and says so', () => {
  const message = thresholdAlertMessage({
    budget,
    month: '2026-11',
    key: 'actual#50',
    basis: 'actual',
    threshold: 50,
    // Two leases of 1.4 cents each and 0.1 cent of a third: 2.9 cents spent in all.
    forecast: forecastMonthEnd(29_000, 1_006_000, NOW),
    leases: [
      { leaseId: 'lease-a', microUsd: 14_000 },
      { leaseId: 'lease-b', microUsd: 14_000 },
      { leaseId: 'lease-c', microUsd: 1_000 },
    ],
  });

  it('rounds the spend instead of truncating it, and shows a lease under a cent exactly', () => {
    expect(message.body).toContain('Spend so far:   $0.03');
    expect(message.body).toContain('  lease-a  $0.01');
    expect(message.body).toContain('  lease-c  $0.001');
  });

  it('says the line items are rounded, so they need not add up to the spend', () => {
    expect(message.body).toMatch(/amounts rounded to the cent, so they may not add up to the spend/);
  });

  it('shows an hourly run rate to the hundredth of a cent: $1.006/h, not $1.00/h', () => {
    expect(message.body).toContain('running leases at $1.006/h x');
  });
});
