import { beforeAll, describe, expect, it } from 'vitest';
import { CLAIM_GRACE_MS } from '../../shared/domain/budgets/evaluation';
import { evaluateBudgets } from '../../shared/usecases/budgets/evaluate-budgets';
import { budgetDepsOf, subscribeToAlerts } from '../support/budgets';
import { emulatorEndpoints } from '../support/emulators';
import { subscribeToDomainEvents } from '../support/events';
import { type Harness, startHarness } from '../support/harness';

let harness: Harness;
let env: Record<string, string>;

beforeAll(async () => {
  harness = await startHarness();
  ({ env } = harness);
});

const call = (...args: Parameters<Harness['call']>) => harness.call(...args);
const tickAndEvaluate = (atMs: number, parallel: number) => harness.tickAndEvaluate(atMs, parallel);
async function firstInstance(tenant: string, body: Record<string, unknown>) {
  return (await harness.runningLease(tenant, body)).instances[0];
}

const keysOf = (alerts: { attributes: Record<string, string> }[]) =>
  alerts.map((a) => `${a.attributes.basis}#${a.attributes.threshold}`).sort();

describe('budget alerts over SNS', () => {
  it('sends exactly one message per threshold and basis as a running lease spends, despite racing evaluations', async () => {
    const tenant = 'tenant-alerts';
    const topic = env.BUDGET_ALERTS_TOPIC_ARN ?? '';
    const everything = await subscribeToAlerts(topic);
    const actualOnly = await subscribeToAlerts(topic, { tenant: [tenant], basis: ['actual'] });
    const integrator = await subscribeToDomainEvents(emulatorEndpoints().events, env.EVENT_BUS_NAME ?? '');
    // g5.xlarge on-demand is $1.006/h: 60 s = $0.016767 (33.5% of $0.05), 90 s 50.3%, 150 s 83.8%, 180 s 100.6%.
    expect(
      (
        await call(tenant, 'PUT /v1/budgets/{name}', {
          params: { name: 'gpu-month' },
          body: { monthlyLimitUsd: 0.05 },
        })
      ).status,
    ).toBe(201);
    const instance = await firstInstance(tenant, { workload: 'training', gpus: 1, mode: 'on-demand' });
    const launched = instance?.launchedAtMs ?? 0;

    // First tick: 34.3% spent (compute and the volume), but the forecast (a month of $1.006/h) is far over every threshold.
    await tickAndEvaluate(launched + 60_000, 3);
    expect(keysOf(await everything.drain())).toEqual(['forecast#100', 'forecast#50', 'forecast#80']);
    await tickAndEvaluate(launched + 90_000, 3);
    expect(keysOf(await everything.drain())).toEqual(['actual#50']);
    await tickAndEvaluate(launched + 120_000, 3); // 68.5%: nothing new
    expect(await everything.drain()).toEqual([]);
    await tickAndEvaluate(launched + 150_000, 3);
    await tickAndEvaluate(launched + 180_000, 3);
    await tickAndEvaluate(launched + 180_000, 3); // a re-delivered tick
    const late = await everything.drain();
    expect(keysOf(late)).toEqual(['actual#100', 'actual#80']);

    const hundred = late.find((a) => a.attributes.threshold === '100');
    expect(hundred?.attributes).toMatchObject({
      tenant,
      budget: 'gpu-month',
      basis: 'actual',
      kind: 'threshold',
      month: new Date(launched + 180_000).toISOString().slice(0, 7),
      alertId: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    expect(hundred?.attributeTypes.threshold).toBe('Number');
    expect(hundred?.subject).toBe(
      `gpurent budget gpu-month: 100% of $0.05 (actual, ${hundred?.attributes.month})`,
    );
    expect(hundred?.body).toContain('Spend so far:   $0.05');
    expect(hundred?.body).toContain(instance?.leaseId);

    // A filter policy on the attributes sees just the actual-spend alerts.
    expect(keysOf(await actualOnly.drain())).toEqual(['actual#100', 'actual#50', 'actual#80']);

    const status = await call(tenant, 'GET /v1/budgets/{name}', { params: { name: 'gpu-month' } });
    // 180 s of compute at $1.006/h = 50,300 µ$, and the 200 GB volume's 180 s at
    // $0.08/GB-month: 200 × 180 × 80,000 / 2,592,000 = 1,111.1, rounded to 1,111 µ$; 51,411 of $0.05 = 102.82%.
    expect(status.body).toMatchObject({ spendMicroUsd: 51_411, alertsSent: 6, percentUsed: 102.82 });
    expect(status.body.thresholdsCrossed).toHaveLength(6);
    expect(status.body.thresholdsCrossed.every((t: { sentAt?: string }) => t.sentAt)).toBe(true);

    const crossed = (await integrator.drain()).filter((e) => e['detail-type'] === 'BudgetThresholdCrossed');
    expect(crossed.map((e) => `${e.detail.basis}#${e.detail.threshold}`).sort()).toEqual([
      'actual#100',
      'actual#50',
      'actual#80',
      'forecast#100',
      'forecast#50',
      'forecast#80',
    ]);
  });

  it('re-arms thresholds when the limit is raised above the spend, and alerts again when spend gets there', async () => {
    const tenant = 'tenant-rearm';
    const alerts = await subscribeToAlerts(env.BUDGET_ALERTS_TOPIC_ARN ?? '', { tenant: [tenant] });
    await call(tenant, 'PUT /v1/budgets/{name}', {
      params: { name: 'team' },
      body: { monthlyLimitUsd: 0.02, basis: 'actual' },
    });
    const instance = await firstInstance(tenant, { workload: 'training', gpus: 1, mode: 'on-demand' });
    const launched = instance?.launchedAtMs ?? 0;
    await tickAndEvaluate(launched + 60_000, 1); // $0.016767 of $0.02: 83.8%
    expect(keysOf(await alerts.drain())).toEqual(['actual#50', 'actual#80']);

    const raised = await call(tenant, 'PUT /v1/budgets/{name}', {
      params: { name: 'team' },
      body: { monthlyLimitUsd: 0.03, basis: 'actual' },
    });
    // $0.016767 of $0.03 is 55.9%: 50% stays crossed, 80% is armed again.
    expect(raised.status).toBe(200);
    expect(raised.body.rearmed).toEqual(['actual#80']);
    await tickAndEvaluate(launched + 70_000, 1);
    expect(await alerts.drain()).toEqual([]);
    await tickAndEvaluate(launched + 90_000, 1); // 90 s = $0.02515: 83.8% of $0.03
    const again = await alerts.drain();
    expect(keysOf(again)).toEqual(['actual#80']);
    expect(again[0]?.attributes.alertId).not.toBe(undefined);
  });
});

describe('an evaluation that dies between claim and publish', () => {
  it('leaves the claim to the next evaluation after the grace period, which sends it once with the same id', async () => {
    const tenant = 'tenant-crash';
    const alerts = await subscribeToAlerts(env.BUDGET_ALERTS_TOPIC_ARN ?? '', { tenant: [tenant] });
    const sns = await budgetDepsOf(env);
    let crash = true;
    // Fault injection: the first publish dies as a Lambda timed out mid-call would.
    const flaky = await budgetDepsOf(env, {
      publish: async (message) => {
        if (crash) throw new Error('injected: the function died before SNS answered');
        await sns.notifier.publish(message);
      },
    });
    await call(tenant, 'PUT /v1/budgets/{name}', {
      params: { name: 'fragile' },
      body: { monthlyLimitUsd: 0.01, basis: 'actual', thresholds: [100] },
    });
    const instance = await firstInstance(tenant, { workload: 'training', gpus: 1 });
    const at = (instance?.launchedAtMs ?? 0) + 60_000;
    await harness.tick(at);

    await expect(evaluateBudgets(flaky, at)).rejects.toThrow('injected');
    const claimed = await flaky.budgets.get(tenant, 'fragile');
    const record = claimed?.alerts['actual#100'];
    expect(record?.sentAtMs).toBeUndefined();

    crash = false;
    await evaluateBudgets(flaky, at + 60_000); // inside the grace period: presumed still publishing
    expect(await alerts.drain()).toEqual([]);
    await Promise.all([
      evaluateBudgets(flaky, at + CLAIM_GRACE_MS),
      evaluateBudgets(flaky, at + CLAIM_GRACE_MS),
    ]);
    const sent = await alerts.drain();
    expect(sent).toHaveLength(1);
    expect(sent[0]?.attributes.alertId).toBe(record?.alertId);
    expect((await flaky.budgets.get(tenant, 'fragile'))?.alerts['actual#100']?.sentAtMs).toBeDefined();
    await evaluateBudgets(flaky, at + 2 * CLAIM_GRACE_MS);
    expect(await alerts.drain()).toEqual([]);
  });
});
