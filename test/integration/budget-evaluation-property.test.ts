import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { METERING_OPEN, spendKey, tenantKey } from '../../shared/adapters/dynamodb-keys';
import type { BudgetAlertMessage } from '../../shared/domain/budgets/alert-message';
import {
  type AlertBasis,
  type BudgetBasis,
  basesOf,
  thresholdAmount,
} from '../../shared/domain/budgets/budget';
import { forecastMonthEnd } from '../../shared/domain/budgets/forecast';
import { monthOf } from '../../shared/domain/spend';
import { evaluateBudgets } from '../../shared/usecases/budgets/evaluate-budgets';
import { putBudget } from '../../shared/usecases/budgets/put-budget';
import { budgetDepsOf } from '../support/budgets';
import { useFreshResources } from '../support/function-env';

let env: Record<string, string>;
let deps: Awaited<ReturnType<typeof budgetDepsOf>>;
const published: BudgetAlertMessage[] = [];

beforeAll(async () => {
  env = await useFreshResources();
  // Records what reaches the topic; the SNS → SQS path itself is covered in budget-alerts.test.ts.
  deps = await budgetDepsOf(env, { publish: async (message) => void published.push(message) });
});

const START = Date.parse('2031-03-03T00:00:00Z');

type Step =
  | { kind: 'spend'; microUsd: number }
  | { kind: 'rate'; microUsdPerHour: number }
  | { kind: 'limit'; usd: number }
  | { kind: 'advance'; minutes: number }
  | { kind: 'evaluate'; racing: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('spend' as const), microUsd: fc.integer({ min: 0, max: 40_000_000 }) }),
  fc.record({ kind: fc.constant('rate' as const), microUsdPerHour: fc.integer({ min: 0, max: 200_000 }) }),
  fc.record({ kind: fc.constant('limit' as const), usd: fc.integer({ min: 10, max: 200 }) }),
  fc.record({ kind: fc.constant('advance' as const), minutes: fc.integer({ min: 1, max: 20_000 }) }),
  fc.record({ kind: fc.constant('evaluate' as const), racing: fc.integer({ min: 1, max: 3 }) }),
);

const scenario = fc.record({
  limitUsd: fc.integer({ min: 10, max: 200 }),
  thresholds: fc.uniqueArray(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 4 }),
  basis: fc.constantFrom<BudgetBasis>('actual', 'forecast', 'both'),
  steps: fc.array(step, { minLength: 1, maxLength: 12 }),
});

let run = 0;

describe('budget alerts, property', () => {
  it('alert each threshold once, exactly at the evaluation that finds it crossed, and never otherwise', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ limitUsd, thresholds, basis, steps }) => {
        run += 1;
        const tenantId = `prop-${run}`;
        const sorted = [...thresholds].sort((a, b) => a - b);
        let now = START;
        let limit = limitUsd * 1_000_000;
        let spend = 0;
        let rate = 0;
        const armed = new Map<string, boolean>(
          basesOf(basis).flatMap((b) => sorted.map((t) => [`${b}#${t}`, true])),
        );
        const clock = { ...deps, now: () => now };
        const measure = (b: AlertBasis) =>
          b === 'actual' ? spend : forecastMonthEnd(spend, rate, now).microUsd;
        const settings = () => ({
          limitMicroUsd: limit,
          thresholds: sorted,
          basis,
          action: 'notify' as const,
        });

        await putBudget(clock, tenantId, 'prop', settings());
        try {
          for (const action of steps) {
            if (action.kind === 'spend') {
              spend += action.microUsd;
              await deps.documents.send(
                new UpdateCommand({
                  TableName: env.SPEND_TABLE_NAME,
                  Key: { pk: tenantKey(tenantId), sk: spendKey(monthOf(now), { kind: 'tenant' }) },
                  UpdateExpression: 'ADD microUsd :m',
                  ExpressionAttributeValues: { ':m': action.microUsd },
                }),
              );
            } else if (action.kind === 'rate') {
              rate = action.microUsdPerHour;
              await setRunRate(tenantId, rate);
            } else if (action.kind === 'advance') {
              // Stay inside the month: a new month is a new budget period (covered by unit tests).
              now = Math.min(now + action.minutes * 60_000, Date.parse('2031-03-31T23:00:00Z'));
            } else if (action.kind === 'limit') {
              const raised = action.usd * 1_000_000 > limit;
              limit = action.usd * 1_000_000;
              for (const key of armed.keys()) {
                const [b, t] = key.split('#') as [AlertBasis, string];
                if (raised && !armed.get(key) && measure(b) < thresholdAmount(limit, Number(t)))
                  armed.set(key, true);
              }
              await putBudget(clock, tenantId, 'prop', settings());
            } else {
              const expected: string[] = [];
              for (const [key, isArmed] of armed) {
                const [b, t] = key.split('#') as [AlertBasis, string];
                if (isArmed && measure(b) >= thresholdAmount(limit, Number(t))) {
                  expected.push(key);
                  armed.set(key, false);
                }
              }
              const before = published.length;
              await Promise.all(Array.from({ length: action.racing }, () => evaluateBudgets(clock, now)));
              const sent = published
                .slice(before)
                .filter((m) => m.attributes.tenant === tenantId)
                .map((m) => `${m.attributes.basis}#${m.attributes.threshold}`);
              expect(sent.sort()).toEqual(expected.sort());
            }
          }
        } finally {
          await deps.budgets.delete(tenantId, 'prop');
          await setRunRate(tenantId, 0);
        }
      }),
      { numRuns: 40 },
    );
  });
});

/** The tenant's run rate comes from its open instances: one open instance priced at `rate` (closed at 0). */
async function setRunRate(tenantId: string, rate: number) {
  await deps.documents.send(
    new UpdateCommand({
      TableName: env.LEASES_TABLE_NAME,
      Key: { pk: tenantKey(tenantId), sk: 'INSTANCE#lease-prop#i-prop' },
      UpdateExpression:
        rate > 0
          ? 'SET tenantId = :t, priceMicroUsdPerHour = :r, meteringOpen = :open'
          : 'REMOVE meteringOpen',
      ExpressionAttributeValues:
        rate > 0 ? { ':t': tenantId, ':r': rate, ':open': METERING_OPEN } : undefined,
    }),
  );
}
