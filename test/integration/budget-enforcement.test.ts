import { beforeAll, describe, expect, it } from 'vitest';
import { awsProbe } from '../support/aws';
import { subscribeToAlerts } from '../support/budgets';
import { emulatorEndpoints } from '../support/emulators';
import { subscribeToDomainEvents } from '../support/events';
import { type Harness, startHarness } from '../support/harness';

let harness: Harness;
let env: Record<string, string>;

beforeAll(async () => {
  harness = await startHarness();
  ({ env } = harness);
});

const leasesOf = async (tenant: string) =>
  (await awsProbe().scan(env.LEASES_TABLE_NAME ?? '')).filter(
    (item) => item.pk === `TENANT#${tenant}` && item.entity === 'lease',
  );
const commandsQueued = async () =>
  (await awsProbe().receiveAll(env.LEASE_COMMANDS_QUEUE_URL ?? '')).map((body) => JSON.parse(body));

describe('block-new-leases', () => {
  it('answers 402 BUDGET_EXCEEDED naming the budget once spend reaches the limit, and writes nothing', async () => {
    const tenant = 'tenant-block';
    await harness.call(tenant, 'PUT /v1/budgets/{name}', {
      params: { name: 'hard-cap' },
      body: { monthlyLimitUsd: 0.01, action: 'block-new-leases' },
    });
    const { instances } = await harness.runningLease(tenant, { workload: 'training', gpus: 1 });
    // Before any charge the budget is untouched: leases are still accepted.
    expect(
      (await harness.call(tenant, 'POST /v1/leases', { body: { workload: 'training', gpus: 1 } })).status,
    ).toBe(202);
    await awsProbe().purge(env.LEASE_COMMANDS_QUEUE_URL ?? '');
    await harness.tickAndEvaluate((instances[0]?.launchedAtMs ?? 0) + 60_000); // $0.016767 of $0.01

    const before = await leasesOf(tenant);
    const refused = await harness.call(tenant, 'POST /v1/leases', {
      body: { workload: 'inference', gpus: 1 },
    });
    expect(refused.status).toBe(402);
    expect(refused.body.error.code).toBe('BUDGET_EXCEEDED');
    expect(refused.body.error.message).toContain('hard-cap');
    expect(refused.body.error.details).toEqual([{ path: 'budget', message: 'hard-cap' }]);
    expect(await leasesOf(tenant)).toHaveLength(before.length);
    expect(await commandsQueued()).toEqual([]);

    // Raising the limit lifts the block at once.
    await harness.call(tenant, 'PUT /v1/budgets/{name}', {
      params: { name: 'hard-cap' },
      body: { monthlyLimitUsd: 10, action: 'block-new-leases' },
    });
    expect(
      (await harness.call(tenant, 'POST /v1/leases', { body: { workload: 'inference', gpus: 1 } })).status,
    ).toBe(202);
  });

  it('blocks only leases in the budget scope: another project, or none, still gets GPUs', async () => {
    const tenant = 'tenant-block-project';
    await harness.call(tenant, 'PUT /v1/budgets/{name}', {
      params: { name: 'vision-cap' },
      body: { monthlyLimitUsd: 0.01, project: 'vision', action: 'block-new-leases' },
    });
    const { instances } = await harness.runningLease(tenant, {
      workload: 'training',
      gpus: 1,
      project: 'vision',
    });
    await harness.tickAndEvaluate((instances[0]?.launchedAtMs ?? 0) + 60_000);

    const inScope = await harness.call(tenant, 'POST /v1/leases', {
      body: { workload: 'training', gpus: 1, project: 'vision' },
    });
    expect(inScope.status).toBe(402);
    expect(inScope.body.error.code).toBe('BUDGET_EXCEEDED');
    for (const body of [
      { workload: 'training', gpus: 1, project: 'speech' },
      { workload: 'training', gpus: 1 },
    ]) {
      expect((await harness.call(tenant, 'POST /v1/leases', { body })).status).toBe(202);
    }
  });
});

describe('stop-interruptible', () => {
  it('releases the spot and batch leases in scope once, tells the tenant, and leaves the rest running', async () => {
    const tenant = 'tenant-stop';
    const alerts = await subscribeToAlerts(env.BUDGET_ALERTS_TOPIC_ARN ?? '', {
      tenant: [tenant],
      kind: ['action'],
    });
    const integrator = await subscribeToDomainEvents(emulatorEndpoints().events, env.EVENT_BUS_NAME ?? '');
    await harness.call(tenant, 'PUT /v1/budgets/{name}', {
      params: { name: 'spot-cap' },
      body: { monthlyLimitUsd: 0.02, action: 'stop-interruptible' },
    });
    const batch = await harness.runningLease(tenant, { workload: 'batch', gpus: 1 });
    const spotTraining = await harness.runningLease(tenant, { workload: 'training', gpus: 1, mode: 'spot' });
    const onDemand = await harness.runningLease(tenant, { workload: 'training', gpus: 1, mode: 'on-demand' });
    expect(batch.instances[0]?.mode).toBe('spot');
    await awsProbe().purge(env.LEASE_COMMANDS_QUEUE_URL ?? '');

    const launched = Math.max(
      ...[batch, spotTraining, onDemand].map((l) => l.instances[0]?.launchedAtMs ?? 0),
    );
    await harness.tickAndEvaluate(launched + 60_000, 2); // three leases: well over $0.02
    await harness.tickAndEvaluate(launched + 120_000, 2);

    const status = async (leaseId: string) => (await harness.stores.leases.get(tenant, leaseId))?.status;
    expect(await status(batch.leaseId)).toBe('RELEASING');
    expect(await status(spotTraining.leaseId)).toBe('RELEASING');
    expect(await status(onDemand.leaseId)).toBe('RUNNING');
    const commands = await commandsQueued();
    expect(commands.every((c) => c.type === 'release')).toBe(true);
    expect(new Set(commands.map((c) => c.leaseId))).toEqual(new Set([batch.leaseId, spotTraining.leaseId]));

    const notices = await alerts.drain();
    expect(notices).toHaveLength(1);
    expect(notices[0]?.subject).toContain('limit reached, stop-interruptible');
    expect(notices[0]?.body).toContain(batch.leaseId);
    const taken = (await integrator.drain()).filter((e) => e['detail-type'] === 'BudgetActionTaken');
    expect(taken).toHaveLength(1);
    expect(taken[0]?.detail).toMatchObject({ budget: 'spot-cap', action: 'stop-interruptible' });
    expect([...((taken[0]?.detail.releasedLeaseIds ?? []) as string[])].sort()).toEqual(
      [batch.leaseId, spotTraining.leaseId].sort(),
    );
  });
});
