import { beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_DEFAULT_LIMITS } from '../../local/environment';
import { DEFAULT_TENANT_LIMITS } from '../../shared/domain/tenant-limits';
import { startHarness } from '../support/harness';

let harness: Awaited<ReturnType<typeof startHarness>>;
const admin = { 'cognito:groups': '[admin]' };

beforeAll(async () => {
  harness = await startHarness();
});

const setLimits = (tenant: string, body: Record<string, number>) =>
  harness.call('operators', 'PUT /v1/admin/tenants/{tenantId}/limits', {
    params: { tenantId: tenant },
    body,
    claims: admin,
  });

describe('per-tenant limits on the API (DynamoDB Local, the real handler)', () => {
  it("shows a tenant the deployment's defaults, and an admin sets them; a tenant cannot", async () => {
    // Locally DEFAULT_TENANT_LIMITS raises the built-in defaults (local/environment.ts); fields it omits keep theirs.
    expect((await harness.call('fresh', 'GET /v1/limits')).body).toEqual({
      tenantId: 'fresh',
      limits: { ...DEFAULT_TENANT_LIMITS, ...LOCAL_DEFAULT_LIMITS },
      isDefault: true,
    });
    const forbidden = await harness.call('fresh', 'PUT /v1/admin/tenants/{tenantId}/limits', {
      params: { tenantId: 'fresh' },
      body: { requestsPerSecond: 1000 },
    });
    expect(forbidden.status).toBe(403);
    const set = await setLimits('fresh', { requestsPerSecond: 7 });
    expect(set.status).toBe(200);
    expect(set.body.limits).toEqual({ ...DEFAULT_TENANT_LIMITS, requestsPerSecond: 7 });
    expect((await harness.call('fresh', 'GET /v1/limits')).body).toMatchObject({ isDefault: false });
    const invalid = await setLimits('fresh', { requestsPerSecond: 0 });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.details).toEqual([
      { path: 'requestsPerSecond', message: 'must be at least 1' },
    ]);
  });

  it("answers a tenant past its rate 429 RATE_LIMITED with Retry-After, while another tenant's requests go on", async () => {
    await setLimits('flood', { requestsPerSecond: 1 });
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => harness.call('flood', 'GET /v1/limits')),
    );
    const refused = answers.filter((answer) => answer.status === 429);
    // At most one request per second passes: twelve concurrent ones cannot all land in different seconds.
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]?.headers['retry-after']).toBe('1');
    expect(refused[0]?.body.error).toMatchObject({
      code: 'RATE_LIMITED',
      message: expect.stringContaining('may make 1 API requests a second'),
    });
    expect((await harness.call('calm', 'GET /v1/limits')).status).toBe(200);
  });

  it('refuses a custom scaling condition outside gpurent/<tenant>/ with a 400 naming the field, storing nothing', async () => {
    const group = (namespace: string) => ({
      instanceType: 'g5.xlarge',
      min: 0,
      max: 1,
      scaleOut: {
        conditions: [
          { metric: 'custom', namespace, name: 'Depth', statistic: 'Sum', comparison: '>', threshold: 1 },
        ],
      },
    });
    const refused = await harness.call('peeker', 'PUT /v1/scaling-groups/{name}', {
      params: { name: 'spy' },
      body: group('CWAgent'),
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      code: 'METRIC_NAMESPACE_NOT_OWNED',
      details: [
        { path: 'scaleOut.conditions.0.namespace', message: expect.stringContaining('gpurent/peeker/') },
      ],
    });
    expect((await harness.call('peeker', 'GET /v1/scaling-groups')).body.groups).toEqual([]);
    const own = await harness.call('peeker', 'PUT /v1/scaling-groups/{name}', {
      params: { name: 'own' },
      body: group('gpurent/peeker/queue'),
    });
    expect(own.status).toBe(201);
  });

  it("refuses a scaling group past the tenant's cap with 409 SCALING_GROUP_CAP_REACHED", async () => {
    await setLimits('capped', { maxScalingGroups: 1 });
    const body = { instanceType: 'g5.xlarge', min: 1, max: 1 };
    expect(
      (await harness.call('capped', 'PUT /v1/scaling-groups/{name}', { params: { name: 'a' }, body })).status,
    ).toBe(201);
    const second = await harness.call('capped', 'PUT /v1/scaling-groups/{name}', {
      params: { name: 'b' },
      body,
    });
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe('SCALING_GROUP_CAP_REACHED');
  });

  it('refuses {{ssm: in a task and a lease past the stored size limit with 400s, writing no lease', async () => {
    const smuggled = await harness.call('tasker', 'POST /v1/leases', {
      body: { workload: 'training', gpus: 1, task: { command: 'echo {{ssm:/gpurent/other/HF_TOKEN}}' } },
    });
    expect(smuggled.status).toBe(400);
    expect(smuggled.body.error.details).toEqual([
      { path: 'task.command', message: expect.stringContaining('{{ssm:') },
    ]);

    const env = Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`VAR_${i}`, 'x'.repeat(4096)]));
    const secrets = Object.fromEntries(
      Array.from({ length: 64 }, (_, i) => [`S_${i}`, `/gpurent/tasker/${'y'.repeat(2000)}`]),
    );
    const huge = await harness.call('tasker', 'POST /v1/leases', {
      body: { workload: 'training', gpus: 1, task: { command: 'z'.repeat(65_536), env, secrets } },
    });
    expect(huge.status).toBe(400);
    expect(huge.body.error).toMatchObject({
      code: 'TASK_TOO_LARGE',
      message: expect.stringMatching(/stored as \d+ bytes; a lease may be at most 376832 bytes/),
    });
    expect((await harness.call('tasker', 'GET /v1/leases')).body.leases).toEqual([]);
  });
});
