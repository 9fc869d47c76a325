import { beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
});

describe('GET /v1/profile', () => {
  it("profiles the tenant's own demand per day, and no one else's", async () => {
    const { instances } = await harness.runningLease('tenant-profile', { workload: 'batch', gpus: 2 });
    await harness.runningLease('tenant-profile-other', { workload: 'training', gpus: 1 });
    const today = new Date().toISOString().slice(0, 10);
    const response = await harness.call('tenant-profile', 'GET /v1/profile', { query: { from: today } });
    expect(response.status).toBe(200);
    expect(response.body.gpuUtilization).toBeNull();
    const [day] = response.body.days;
    expect(day.day).toBe(today);
    expect(day.peakConcurrentGpus).toBe(2);
    expect(Object.keys(day.byWorkload)).toEqual(['batch']);
    expect(Object.keys(day.byMode)).toEqual([instances[0]?.mode]);
    expect(day.waitSeconds.leases).toBe(1);
    expect(day.waitSeconds.p50).toBeGreaterThanOrEqual(0);
  });

  it.each([
    [{ from: '2026-11-02', to: '2026-11-01' }, 'from'],
    [{ from: '2024-01-01', to: '2026-01-01' }, 'to'],
    [{ from: 'last week' }, 'from'],
    [{ groupBy: 'mode' }, 'query'],
  ])('refuses %o with 400 naming %s', async (query, path) => {
    const response = await harness.call('tenant-profile', 'GET /v1/profile', { query });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_FAILED');
    expect(response.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
  });
});
