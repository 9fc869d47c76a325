import { beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_DEFAULT_QUOTA } from '../../local/environment';
import { type Harness, startHarness } from '../support/harness';

let h: Harness;
const ADMIN = { 'cognito:groups': '[admin]' };

beforeAll(async () => {
  h = await startHarness();
});

const put = (tenantId: string, body: unknown, claims: Record<string, string> = ADMIN) =>
  h.call('ops', 'PUT /v1/admin/tenants/{tenantId}/quota', { params: { tenantId }, body, claims });

describe('quota routes on the real API handler and the admission table', () => {
  it('give a tenant without a quota the default, with no use', async () => {
    const own = await h.call('fresh', 'GET /v1/quota');
    expect(own.status).toBe(200);
    expect(own.body).toEqual({
      tenantId: 'fresh',
      quota: { ...LOCAL_DEFAULT_QUOTA, weight: 1 },
      isDefault: true,
      usage: { gpus: 0, hourlyUsd: 0, gpusByMode: {} },
    });
  });

  it('store an admin quota with exact money and mode caps; the tenant reads it back', async () => {
    const body = { maxGpus: 4, maxHourlyUsd: 12.345678, maxGpusByMode: { spot: 2 }, weight: 2.5 };
    const stored = await put('acme', body);
    expect(stored.status).toBe(200);
    expect(stored.body).toMatchObject({ tenantId: 'acme', quota: body, isDefault: false });

    const admin = await h.call('ops', 'GET /v1/admin/tenants/{tenantId}/quota', {
      params: { tenantId: 'acme' },
      claims: ADMIN,
    });
    expect(admin.body).toEqual(stored.body);
    const own = await h.call('acme', 'GET /v1/quota');
    expect(own.body).toEqual(stored.body);
  });

  it.each([
    ['negative GPUs', { maxGpus: -1, maxHourlyUsd: 10 }, 'maxGpus'],
    ['a fraction of a GPU', { maxGpus: 1.5, maxHourlyUsd: 10 }, 'maxGpus'],
    ['money finer than a micro-dollar', { maxGpus: 1, maxHourlyUsd: 1.0000001 }, 'maxHourlyUsd'],
    ['a weight under 0.01', { maxGpus: 1, maxHourlyUsd: 1, weight: 0.001 }, 'weight'],
    ['a weight over 100', { maxGpus: 1, maxHourlyUsd: 1, weight: 101 }, 'weight'],
    [
      'a mode cap that is not a mode',
      { maxGpus: 1, maxHourlyUsd: 1, maxGpusByMode: { cheap: 1 } },
      'maxGpusByMode',
    ],
  ])('refuse %s with 400 VALIDATION_FAILED and store nothing', async (_what, body, path) => {
    const refused = await put('initech', body);
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('VALIDATION_FAILED');
    expect(refused.body.error.details.map((d: { path: string }) => d.path).join(' ')).toContain(path);
    const own = await h.call('initech', 'GET /v1/quota');
    expect(own.body.isDefault).toBe(true);
  });

  it('refuse a tenant token on the admin routes (403 ADMIN_REQUIRED) and store nothing', async () => {
    const refused = await put('globex', { maxGpus: 100, maxHourlyUsd: 1000 }, {});
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('ADMIN_REQUIRED');
    const read = await h.call('globex', 'GET /v1/admin/tenants/{tenantId}/quota', {
      params: { tenantId: 'globex' },
    });
    expect(read.status).toBe(403);
    expect((await h.call('globex', 'GET /v1/quota')).body.isDefault).toBe(true);
  });

  it('refuse a malformed tenant id (400 INVALID_TENANT_ID)', async () => {
    const refused = await put('no spaces', { maxGpus: 1, maxHourlyUsd: 1 });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('INVALID_TENANT_ID');
  });
});
