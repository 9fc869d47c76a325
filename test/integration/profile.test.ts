import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { beforeAll, describe, expect, it } from 'vitest';
import { publishGpuSamples } from '../../local/runtime/gpu-telemetry-publisher';
import { type Harness, startHarness } from '../support/harness';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
});

describe('GET /v1/profile', () => {
  it("profiles the tenant's own demand per day, and no one else's", async () => {
    const { instances } = await harness.runningLease('tenant-profile', { workload: 'batch', gpus: 2 });
    const other = await harness.runningLease('tenant-profile-other', { workload: 'training', gpus: 1 });
    // The agent on the first GPU sends 20% and 60% this minute; the second GPU sends nothing yet.
    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    const sample = (
      instance: { tenantId: string; leaseId: string; instanceId: string } | undefined,
      utilizationPercent: number,
    ) => ({
      tenantId: instance?.tenantId ?? '',
      leaseId: instance?.leaseId ?? '',
      instanceId: instance?.instanceId ?? '',
      gpuIndex: 0,
      atMs: minute,
      utilizationPercent,
      memoryUsedMiB: 1000,
      memoryTotalMiB: 24_000,
      temperatureC: 60,
      powerW: 150,
    });
    await publishGpuSamples(new CloudWatchClient({}), [
      sample(instances[0], 20),
      sample(instances[0], 60),
      sample(other.instances[0], 100),
    ]);
    const today = new Date(minute).toISOString().slice(0, 10);
    const response = await harness.call('tenant-profile', 'GET /v1/profile', { query: { from: today } });
    expect(response.status).toBe(200);
    const measured = { percent: 40, telemetry: 'partial', measuredGpuHours: 0.033, gpusWithoutTelemetry: 1 };
    expect(response.body.gpuUtilization).toEqual(measured);
    expect(response.body.gpuUtilizationNote).toMatch(/GPU-minute weighs the same/);
    const [day] = response.body.days;
    expect(day.gpuUtilization).toEqual(measured);
    expect(day.day).toBe(today);
    expect(day.peakConcurrentGpus).toBe(2);
    expect(Object.keys(day.byWorkload)).toEqual(['batch']);
    expect(Object.keys(day.byMode)).toEqual([instances[0]?.mode]);
    expect(day.waitSeconds.leases).toBe(1);
    expect(day.waitSeconds.p50).toBeGreaterThanOrEqual(0);
  });

  it('says a day had no telemetry rather than 0%', async () => {
    await harness.runningLease('tenant-profile-silent', { workload: 'inference', gpus: 1 });
    const today = new Date().toISOString().slice(0, 10);
    const { body } = await harness.call('tenant-profile-silent', 'GET /v1/profile', {
      query: { from: today },
    });
    expect(body.days[0].gpuUtilization).toEqual({
      percent: null,
      telemetry: 'none',
      measuredGpuHours: 0,
      gpusWithoutTelemetry: 1,
    });
    // A lease without a task: no task time, no wait to a task's start.
    expect(body.days[0].tasks).toEqual({
      runSeconds: 0,
      waitSeconds: { tasks: 0, p50: null, p95: null },
      byWorkload: {},
    });
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
