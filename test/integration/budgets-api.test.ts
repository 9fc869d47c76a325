import { beforeAll, describe, expect, it } from 'vitest';
import { awsProbe } from '../support/aws';
import { type Harness, startHarness } from '../support/harness';

let harness: Harness;
let env: Record<string, string>;

beforeAll(async () => {
  harness = await startHarness();
  ({ env } = harness);
});

const budgetsOf = async (tenant: string) =>
  (await awsProbe().scan(env.BUDGETS_TABLE_NAME ?? '')).filter((item) => item.pk === `TENANT#${tenant}`);
const put = (tenant: string, name: string, body: unknown) =>
  harness.call(tenant, 'PUT /v1/budgets/{name}', { params: { name }, body });

describe('PUT /v1/budgets/{name}', () => {
  it('creates a budget with the documented defaults, then replaces its settings', async () => {
    const created = await put('tenant-b1', 'gpu-spend', { monthlyLimitUsd: 2500.5 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'gpu-spend',
      monthlyLimitUsd: 2500.5,
      limitMicroUsd: 2_500_500_000,
      thresholds: [50, 80, 100],
      basis: 'both',
      action: 'notify',
      revision: 1,
      spendMicroUsd: 0,
      forecastMicroUsd: 0,
      thresholdsCrossed: [],
      alertsSent: 0,
    });
    expect(created.body.month).toBe(new Date().toISOString().slice(0, 7));

    const replaced = await put('tenant-b1', 'gpu-spend', {
      monthlyLimitUsd: 100,
      project: 'vision',
      thresholds: [25, 75, 150],
      basis: 'forecast',
      action: 'block-new-leases',
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ revision: 2, project: 'vision', thresholds: [25, 75, 150] });
    expect(await budgetsOf('tenant-b1')).toHaveLength(1);
  });

  const invalid: [string, unknown][] = [
    ['a negative limit', { monthlyLimitUsd: -5 }],
    ['a zero limit', { monthlyLimitUsd: 0 }],
    ['a limit given as text', { monthlyLimitUsd: '100' }],
    ['a limit finer than a micro-dollar', { monthlyLimitUsd: 1.0000001 }],
    ['a limit beyond a billion dollars', { monthlyLimitUsd: 2e9 }],
    ['a missing limit', { thresholds: [50] }],
    ['a threshold of 0', { monthlyLimitUsd: 10, thresholds: [0, 50] }],
    ['a threshold over 1000', { monthlyLimitUsd: 10, thresholds: [50, 1001] }],
    ['unsorted thresholds', { monthlyLimitUsd: 10, thresholds: [80, 50] }],
    ['repeated thresholds', { monthlyLimitUsd: 10, thresholds: [50, 50] }],
    ['a fractional threshold', { monthlyLimitUsd: 10, thresholds: [50.5] }],
    ['no thresholds', { monthlyLimitUsd: 10, thresholds: [] }],
    ['an unknown basis', { monthlyLimitUsd: 10, basis: 'projected' }],
    ['an unknown action', { monthlyLimitUsd: 10, action: 'terminate-all' }],
    ['a bad project', { monthlyLimitUsd: 10, project: 'Vision Team' }],
    ['an unknown field', { monthlyLimitUsd: 10, currency: 'EUR' }],
  ];
  it.each(invalid)('refuses %s with 400 VALIDATION_FAILED and stores nothing', async (_what, body) => {
    const response = await put('tenant-bad', 'budget', body);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_FAILED');
    expect(response.body.error.details.length).toBeGreaterThan(0);
    expect(await budgetsOf('tenant-bad')).toEqual([]);
  });

  it('says which field is wrong and how to fix it', async () => {
    const response = await put('tenant-bad', 'budget', { monthlyLimitUsd: 10, thresholds: [80, 50] });
    expect(response.body.error.details).toEqual([
      { path: 'thresholds', message: 'must be ascending without repeats, such as [50, 80, 100]' },
    ]);
  });

  it.each(['Team', 'a_b', 'x'.repeat(65)])(
    'refuses the name %s with 400 INVALID_BUDGET_NAME',
    async (name) => {
      const response = await put('tenant-bad', name, { monthlyLimitUsd: 10 });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('INVALID_BUDGET_NAME');
      expect(await budgetsOf('tenant-bad')).toEqual([]);
    },
  );

  it('refuses a body that is not JSON', async () => {
    const response = await harness.call('tenant-bad', 'PUT /v1/budgets/{name}', { params: { name: 'x' } });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('BODY_REQUIRED');
  });
});

describe('reading and deleting budgets', () => {
  it("lists a tenant's own budgets and never another tenant's", async () => {
    await put('tenant-r1', 'alpha', { monthlyLimitUsd: 1 });
    await put('tenant-r1', 'beta', { monthlyLimitUsd: 2, project: 'nlp' });
    await put('tenant-r2', 'alpha', { monthlyLimitUsd: 3 });
    const list = await harness.call('tenant-r1', 'GET /v1/budgets');
    expect(list.status).toBe(200);
    expect(list.body.budgets.map((b: { name: string }) => b.name).sort()).toEqual(['alpha', 'beta']);
    const other = await harness.call('tenant-r2', 'GET /v1/budgets/{name}', { params: { name: 'beta' } });
    expect(other.status).toBe(404);
    expect(other.body.error.code).toBe('BUDGET_NOT_FOUND');
    const own = await harness.call('tenant-r2', 'GET /v1/budgets/{name}', { params: { name: 'alpha' } });
    expect(own.body).toMatchObject({ name: 'alpha', monthlyLimitUsd: 3 });
  });

  it("forecasts from the tenant's running leases: spend + run rate × hours left in the month", async () => {
    const tenant = 'tenant-forecast';
    await put(tenant, 'all', { monthlyLimitUsd: 1000 });
    const { instances } = await harness.runningLease(tenant, { workload: 'training', gpus: 2 });
    const body = (await harness.call(tenant, 'GET /v1/budgets/{name}', { params: { name: 'all' } })).body;
    expect(body.forecastMethod.runRatePerHourMicroUsd).toBe(2 * (instances[0]?.priceMicroUsdPerHour ?? 0));
    expect(body.forecastMicroUsd).toBeGreaterThan(body.spendMicroUsd);
    // Another tenant's leases never count toward this tenant's forecast.
    await put('tenant-forecast-other', 'all', { monthlyLimitUsd: 1000 });
    const other = await harness.call('tenant-forecast-other', 'GET /v1/budgets/{name}', {
      params: { name: 'all' },
    });
    expect(other.body.forecastMethod.runRatePerHourMicroUsd).toBe(0);
  });

  it('answers a PUT with the budget measured in its new scope when the project changes', async () => {
    const tenant = 'tenant-rescope';
    const { instances } = await harness.runningLease(tenant, { workload: 'training', gpus: 1 });
    const rate = instances[0]?.priceMicroUsdPerHour ?? 0;
    await put(tenant, 'scoped', { monthlyLimitUsd: 1000 });
    // The running lease has no project label: nothing of it counts toward project vision.
    const toProject = await put(tenant, 'scoped', { monthlyLimitUsd: 1000, project: 'vision' });
    expect(toProject.body.forecastMethod.runRatePerHourMicroUsd).toBe(0);
    const limitOnly = await put(tenant, 'scoped', { monthlyLimitUsd: 2000, project: 'vision' });
    expect(limitOnly.body.forecastMethod.runRatePerHourMicroUsd).toBe(0);
    const toTenant = await put(tenant, 'scoped', { monthlyLimitUsd: 2000 });
    expect(toTenant.body.forecastMethod.runRatePerHourMicroUsd).toBe(rate);
    const again = await put(tenant, 'scoped', { monthlyLimitUsd: 3000 });
    expect(again.body.forecastMethod.runRatePerHourMicroUsd).toBe(rate);
    expect(again.body).toMatchObject({ revision: 5, monthlyLimitUsd: 3000 });
  });

  it('deletes a budget once: 204, then 404', async () => {
    await put('tenant-d', 'temp', { monthlyLimitUsd: 5 });
    const first = await harness.call('tenant-d', 'DELETE /v1/budgets/{name}', { params: { name: 'temp' } });
    expect(first.status).toBe(204);
    const second = await harness.call('tenant-d', 'DELETE /v1/budgets/{name}', { params: { name: 'temp' } });
    expect(second.status).toBe(404);
    expect(await budgetsOf('tenant-d')).toEqual([]);
  });
});

describe('GET /v1/admin/budgets', () => {
  it('lists every tenant’s budgets for an admin token', async () => {
    await put('tenant-a1', 'one', { monthlyLimitUsd: 1 });
    await put('tenant-a2', 'two', { monthlyLimitUsd: 2 });
    const response = await harness.call('ops', 'GET /v1/admin/budgets', {
      claims: { 'cognito:groups': '[admin]' },
    });
    expect(response.status).toBe(200);
    const owners = response.body.budgets.map(
      (b: { tenantId: string; name: string }) => `${b.tenantId}/${b.name}`,
    );
    expect(owners).toEqual(expect.arrayContaining(['tenant-a1/one', 'tenant-a2/two']));
  });

  it('is 403 ADMIN_REQUIRED for a tenant token', async () => {
    const tokens: Record<string, string>[] = [
      {},
      { 'cognito:groups': '[users]' },
      { 'cognito:groups': 'administrators' },
    ];
    for (const claims of tokens) {
      const response = await harness.call('tenant-a1', 'GET /v1/admin/budgets', { claims });
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe('ADMIN_REQUIRED');
    }
  });
});

describe('project labels on leases', () => {
  it('stores and shows the label, exports it, and groups usage by it', async () => {
    const tenant = 'tenant-projects';
    const vision = await harness.runningLease(tenant, { workload: 'training', gpus: 1, project: 'vision' });
    const plain = await harness.runningLease(tenant, { workload: 'training', gpus: 1 });
    const at =
      Math.max(vision.instances[0]?.launchedAtMs ?? 0, plain.instances[0]?.launchedAtMs ?? 0) + 60_000;
    await harness.tickAndEvaluate(at);

    const shown = await harness.call(tenant, 'GET /v1/leases/{id}', { params: { id: vision.leaseId } });
    expect(shown.body.project).toBe('vision');
    const usage = await harness.call(tenant, 'GET /v1/usage', {
      query: { groupBy: 'project', to: new Date(at + 1000).toISOString() },
    });
    expect(usage.status).toBe(200);
    expect(usage.body.groups.map((g: { key: string }) => g.key).sort()).toEqual(['(none)', 'vision']);
    const csv = await harness.call(tenant, 'GET /v1/usage/export', {
      query: { to: new Date(at).toISOString() },
    });
    const rows = String(csv.body).trim().split('\n');
    expect(rows[0]).toBe('lease_id,workload,mode,instance_type,gpus,started_at,ended_at,project');
    expect(rows.find((row) => row.startsWith(vision.leaseId))?.endsWith(',vision')).toBe(true);
    expect(rows.find((row) => row.startsWith(plain.leaseId))?.endsWith(',')).toBe(true);
  });

  it('refuses a malformed project label with 400 and writes no lease', async () => {
    const response = await harness.call('tenant-bad-project', 'POST /v1/leases', {
      body: { workload: 'training', gpus: 1, project: 'x'.repeat(65) },
    });
    expect(response.status).toBe(400);
    expect(response.body.error.details[0].path).toBe('project');
    const stored = (await awsProbe().scan(env.LEASES_TABLE_NAME ?? '')).filter(
      (item) => item.pk === 'TENANT#tenant-bad-project',
    );
    expect(stored).toEqual([]);
  });
});
