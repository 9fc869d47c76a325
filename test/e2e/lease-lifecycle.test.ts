import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { leaseBody } from '../../functions/api/lease-view';
import { type LocalStack, startLocalStack } from '../../local/stack';
import { monthBefore, nextAuditRunAfter } from '../../shared/domain/audit/audit-month';
import { costOfSeconds } from '../../shared/domain/money';
import { LEASE_TAG } from '../../shared/ports/compute';
import { awsProbe } from '../support/aws';
import { emulatorEndpoints } from '../support/emulators';

let stack: LocalStack;

beforeAll(async () => {
  stack = await startLocalStack({ port: 0, endpoints: emulatorEndpoints(), prefix: 'e2e', timers: false });
});

afterAll(async () => {
  vi.useRealTimers();
  await stack?.stop();
});

type LeaseJson = ReturnType<typeof leaseBody>;

async function api<Body = LeaseJson>(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${stack.apiUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Body };
}

async function until<T>(
  what: string,
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Moves this process's clock (the API, worker and metering handlers read Date.now
 * at each call) to `atMs`, from where it keeps running at real speed; timers stay
 * real. The emulators keep their own clocks, as AWS's would be unaffected.
 */
function clockJumpsTo(atMs: number): void {
  if (atMs <= Date.now()) return;
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  vi.setSystemTime(atMs);
}

describe('one lease end to end through the local HTTP API', () => {
  it('refuses requests without a valid token, as the JWT authorizer does', async () => {
    const response = await fetch(`${stack.apiUrl}/v1/leases`, {
      headers: { authorization: 'Bearer forged.token.here' },
    });
    expect(response.status).toBe(401);
    const health = await fetch(`${stack.apiUrl}/v1/health`);
    expect(health.status).toBe(200);
  });

  it('runs, meters every tick, releases and bills max(60, ceil(duration)) × price and its volume exactly', async () => {
    const created = await api(
      'POST',
      '/v1/leases',
      { workload: 'training', gpus: 1 },
      { 'idempotency-key': 'e2e-lease-0001' },
    );
    expect(created.status).toBe(202);
    const { leaseId } = created.body;

    const running = await until(
      'RUNNING',
      () => api('GET', `/v1/leases/${leaseId}`),
      (r) => r.body.status === 'RUNNING',
    );
    const instance = running.body.instances[0];
    if (!instance?.launchedAt) throw new Error('no instance launched');
    expect(instance.mode).toBe('on-demand');
    expect(await awsProbe().instancesTagged(LEASE_TAG, leaseId)).toHaveLength(1);
    const launchedAtMs = Date.parse(instance.launchedAt);
    const priceMicro = Math.round(instance.pricePerHourUsd * 1_000_000);

    // Ticks as the one-minute schedule would fire them; a minute passes on the clock between them.
    await stack.schedules.fire('gpurent-metering', Date.now());
    const first = (await api('GET', `/v1/leases/${leaseId}`)).body;
    expect(first.instances[0]?.billedSeconds).toBe(60);
    expect(first.costByDimension.compute).toBe(costOfSeconds(60, priceMicro));
    expect(first.costMicroUsd).toBe(first.costByDimension.compute + first.costByDimension.storage);

    clockJumpsTo(launchedAtMs + 63_000);
    await stack.schedules.fire('gpurent-metering', Date.now());
    const second = (await api('GET', `/v1/leases/${leaseId}`)).body;
    expect(second.instances[0]?.billedSeconds).toBeGreaterThan(first.instances[0]?.billedSeconds ?? 0);
    expect(second.costMicroUsd).toBeGreaterThan(first.costMicroUsd);

    const deleted = await api('DELETE', `/v1/leases/${leaseId}`);
    expect(deleted.status).toBe(202);
    const released = await until(
      'RELEASED',
      () => api('GET', `/v1/leases/${leaseId}`),
      (r) => r.body.status === 'RELEASED',
    );
    expect(await awsProbe().instancesTagged(LEASE_TAG, leaseId)).toHaveLength(0);

    const ended = released.body.instances[0];
    const seconds = Math.max(60, Math.ceil((Date.parse(ended?.endedAt ?? '') - launchedAtMs) / 1000));
    expect(ended?.billedSeconds).toBe(seconds);
    expect(ended?.region).toBe('us-east-1');
    // Past the minute, its 200 GiB gp3 volume is billed the same ceil(duration) seconds at us-east-1's
    // $0.08/GB-month: 200 × seconds × 80,000 µ$ ÷ 2,592,000 s, rounded half up; no transfer (no dataRegion).
    const storage = Math.round((200 * seconds * 80_000) / 2_592_000);
    expect(released.body.costByDimension).toEqual({
      compute: costOfSeconds(seconds, priceMicro),
      storage,
      transfer: 0,
    });
    expect(released.body.costMicroUsd).toBe(costOfSeconds(seconds, priceMicro) + storage);

    const usage = await api<{ groups: unknown[] }>('GET', '/v1/usage?groupBy=lease');
    expect(usage.body.groups).toContainEqual(
      expect.objectContaining({ key: leaseId, seconds, costMicroUsd: released.body.costMicroUsd }),
    );
  }, 120_000);

  it("stores and serves this month's audit when the local audit schedule fires on the 1st", async () => {
    const firedAtMs = nextAuditRunAfter(Date.now());
    const month = monthBefore(firedAtMs);
    expect(await stack.schedules.fire('gpurent-audit', firedAtMs)).toMatchObject({
      month,
      stored: 1,
      announced: 1,
    });
    const audit = await api<{ generatedAt: string; costMicroUsd: number; complete: boolean }>(
      'GET',
      `/v1/audit/${month}`,
    );
    expect(audit.status).toBe(200);
    expect(audit.body).toMatchObject({ generatedAt: new Date(firedAtMs).toISOString(), complete: true });
    expect(audit.body.costMicroUsd).toBeGreaterThan(0);
    const report = await fetch(`${stack.apiUrl}/v1/audit/${month}/report.html`, {
      headers: { authorization: `Bearer ${stack.token}` },
    });
    expect(report.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(report.headers.get('content-security-policy')).toBe(
      "default-src 'none'; style-src 'unsafe-inline'",
    );
    expect(await report.text()).toContain('data-chart="concurrency"');
  });
});
