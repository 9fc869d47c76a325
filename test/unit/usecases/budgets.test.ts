import { describe, expect, it } from 'vitest';
import type { BudgetSettings } from '../../../shared/domain/budgets/budget';
import { CLAIM_GRACE_MS } from '../../../shared/domain/budgets/evaluation';
import { BudgetExceededError } from '../../../shared/errors';
import { assertWithinBudgets } from '../../../shared/usecases/budgets/budget-guard';
import { statusOfTenantBudgets } from '../../../shared/usecases/budgets/budget-status';
import { evaluateBudgets } from '../../../shared/usecases/budgets/evaluate-budgets';
import { BudgetUpdateConflictError, putBudget } from '../../../shared/usecases/budgets/put-budget';
import { type FakeControlPlane, fakeControlPlane } from '../../support/fakes/control-plane';
import { runningLease, TENANT } from '../../support/fakes/leases';

const LIMIT = 10_000_000;
const settings = (overrides: Partial<BudgetSettings> = {}): BudgetSettings => ({
  limitMicroUsd: LIMIT,
  thresholds: [50, 80, 100],
  basis: 'actual',
  action: 'notify',
  ...overrides,
});

/** Spend the ledger would have counted this month for the whole tenant. */
const spent = (plane: FakeControlPlane, microUsd: number) =>
  plane.spend.add({
    tenantId: TENANT,
    aggregate: { kind: 'month', month: '2026-11', scope: { kind: 'tenant' } },
    microUsd,
    seconds: 1,
  });

describe('evaluating budgets', () => {
  it('sends each threshold crossed once, on the topic and the bus', async () => {
    const plane = fakeControlPlane();
    await putBudget(plane, TENANT, 'monthly', settings());
    spent(plane, 8_500_000);

    const first = await evaluateBudgets(plane, plane.now());
    const second = await evaluateBudgets(plane, plane.clock.advance(60_000));

    expect(first).toEqual({ budgets: 1, alertsSent: 2, actionsTaken: 0, leasesReleased: 0 });
    expect(second.alertsSent).toBe(0);
    expect(plane.notifier.messages.map((m) => m.attributes.threshold)).toEqual([50, 80]);
    expect(plane.events.ofType('BudgetThresholdCrossed').map((e) => e.detail.threshold)).toEqual([50, 80]);
    const stored = await plane.budgets.get(TENANT, 'monthly');
    expect(Object.values(stored?.alerts ?? {}).every((a) => a.sentAtMs !== undefined)).toBe(true);
  });

  it('finishes an alert whose evaluation died after claiming it, with the same id, after the grace', async () => {
    const plane = fakeControlPlane();
    await putBudget(plane, TENANT, 'monthly', settings({ thresholds: [50] }));
    spent(plane, 6_000_000);
    plane.notifier.faults.failNext('publish', new Error('SNS down'));
    await expect(evaluateBudgets(plane, plane.now())).rejects.toThrow('SNS down');

    expect((await evaluateBudgets(plane, plane.clock.advance(60_000))).alertsSent).toBe(0);
    const late = await evaluateBudgets(plane, plane.clock.advance(CLAIM_GRACE_MS));

    expect(late.alertsSent).toBe(1);
    const claimed = await plane.budgets.get(TENANT, 'monthly');
    expect(plane.notifier.messages.map((m) => m.attributes.alertId)).toEqual([
      claimed?.alerts['actual#50']?.alertId,
    ]);
  });

  it('stop-interruptible releases the spot and batch leases in scope once the limit is reached', async () => {
    const plane = fakeControlPlane();
    const batch = await runningLease(plane, { workload: 'batch' });
    const training = await runningLease(plane);
    await putBudget(plane, TENANT, 'hard', settings({ thresholds: [100], action: 'stop-interruptible' }));
    spent(plane, LIMIT);

    const summary = await evaluateBudgets(plane, plane.now());

    expect(summary).toMatchObject({ actionsTaken: 1, leasesReleased: 1 });
    expect(plane.leases.peek(TENANT, batch.leaseId)?.status).toBe('RELEASING');
    expect(plane.leases.peek(TENANT, training.leaseId)?.status).toBe('RUNNING');
    expect(plane.events.ofType('BudgetActionTaken').map((e) => e.detail.releasedLeaseIds)).toEqual([
      [batch.leaseId],
    ]);
    expect((await evaluateBudgets(plane, plane.clock.advance(60_000))).actionsTaken).toBe(0);
  });
});

describe('putting a budget', () => {
  it('creates it measured, and raising the limit above the spend arms crossed thresholds again', async () => {
    const plane = fakeControlPlane();
    const created = await putBudget(plane, TENANT, 'monthly', settings());
    expect(created).toMatchObject({ created: true, rearmed: [], budget: { revision: 1 } });
    spent(plane, 6_000_000);
    await evaluateBudgets(plane, plane.now());

    const raised = await putBudget(plane, TENANT, 'monthly', settings({ limitMicroUsd: 20_000_000 }));

    expect(raised).toMatchObject({ created: false, rearmed: ['actual#50'], budget: { revision: 2 } });
    expect(raised.status.forecast.spendMicroUsd).toBe(6_000_000);
    expect(Object.keys((await plane.budgets.get(TENANT, 'monthly'))?.alerts ?? {})).toEqual([]);
  });

  it('redoes a save another writer beat, and gives up with a conflict when it loses every attempt', async () => {
    const plane = fakeControlPlane();
    await putBudget(plane, TENANT, 'monthly', settings());
    plane.budgets.raceSaves(1);
    const redone = await putBudget(plane, TENANT, 'monthly', settings({ limitMicroUsd: 12_000_000 }));
    expect(redone.budget).toMatchObject({ revision: 3, limitMicroUsd: 12_000_000 });

    plane.budgets.raceSaves(4);
    await expect(putBudget(plane, TENANT, 'monthly', settings())).rejects.toBeInstanceOf(
      BudgetUpdateConflictError,
    );
  });
});

describe('the budget guard', () => {
  it('blocks only at the limit of a block-new-leases budget', async () => {
    const plane = fakeControlPlane();
    await putBudget(plane, TENANT, 'cap', settings({ action: 'block-new-leases' }));
    spent(plane, LIMIT - 1);
    await expect(assertWithinBudgets(plane, TENANT, undefined)).resolves.toBeUndefined();
    spent(plane, 1);
    await expect(assertWithinBudgets(plane, TENANT, undefined)).rejects.toBeInstanceOf(BudgetExceededError);
    await expect(assertWithinBudgets(plane, 'tenant-b', undefined)).resolves.toBeUndefined();
  });
});

describe("a budget's status", () => {
  it("forecasts the month's end from the spend so far and what the tenant's open instances cost per hour", async () => {
    const plane = fakeControlPlane();
    await runningLease(plane, { project: 'vision' });
    await runningLease(plane, { project: 'audio' });
    const { budget } = await putBudget(plane, TENANT, 'vision', settings({ project: 'vision' }));
    plane.spend.add({
      tenantId: TENANT,
      aggregate: { kind: 'month', month: '2026-11', scope: { kind: 'project', project: 'vision' } },
      microUsd: 2_000_000,
      seconds: 1,
    });

    const [status] = await statusOfTenantBudgets(plane, TENANT, [budget]);

    // Noon on the 16th: 348 hours of November left, at one g5.xlarge of the project.
    expect(status?.forecast).toMatchObject({
      spendMicroUsd: 2_000_000,
      runRateMicroUsdPerHour: 1_006_000,
      microUsd: 2_000_000 + 348 * 1_006_000,
    });
  });
});
