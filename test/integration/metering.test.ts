import { beforeAll, describe, expect, it } from 'vitest';
import { lambdaContext } from '../../local/runtime/lambda-context';
import { scheduledEvent } from '../../local/runtime/schedules';
import { costOfRun } from '../../shared/domain/billing';
import type { LeaseInstance } from '../../shared/domain/lease';
import { newLeaseId } from '../../shared/ids';
import type { TickSummary } from '../../shared/usecases/metering';
import { awsProbe } from '../support/aws';
import { storesOf, useFreshResources } from '../support/function-env';
import { sqsRecord } from '../support/leases';
import { usageCharges } from '../support/usage-records';

let env: Record<string, string>;
let handler: typeof import('../../functions/metering/handler').handler;
let stores: Awaited<ReturnType<typeof storesOf>>;

beforeAll(async () => {
  env = await useFreshResources();
  ({ handler } = await import('../../functions/metering/handler'));
  stores = await storesOf(env);
});

const T0 = Date.parse('2026-11-30T10:00:07.250Z');
const tick = async (atMs: number) =>
  (await handler(
    scheduledEvent('metering', atMs, 'us-east-1'),
    lambdaContext('metering', 60_000),
  )) as TickSummary;

async function openInstance(overrides: Partial<LeaseInstance> = {}): Promise<LeaseInstance> {
  const leaseId = newLeaseId(Date.now());
  const instance: LeaseInstance = {
    tenantId: 'tenant-m',
    leaseId,
    instanceId: `i-${leaseId.slice(-12)}`,
    instanceType: 'p5.4xlarge',
    mode: 'on-demand',
    zone: 'us-east-1a',
    priceMicroUsdPerHour: 3_060_000,
    launchedAtMs: T0,
    meteredUntilMs: T0,
    billedSeconds: 0,
    billedMicroUsd: 0,
    meteringOpen: true,
    ...overrides,
  };
  await stores.leases.recordInstances([instance]);
  return instance;
}

const current = async (instance: LeaseInstance) =>
  (await stores.leases.openInstances()).find((i) => i.instanceId === instance.instanceId);
const usageRows = async (instance: LeaseInstance) =>
  (await usageCharges(env.USAGE_TABLE_NAME ?? '')).filter((row) => row.instanceId === instance.instanceId);

describe('metering ticks against DynamoDB', () => {
  it('charges the minimum first, then whole seconds, one charge per tick', async () => {
    const instance = await openInstance();
    await tick(T0 + 52_750); // 10:01:00
    expect(await current(instance)).toMatchObject({ billedSeconds: 60, billedMicroUsd: 51_000 });
    await tick(T0 + 112_750); // 10:02:00 → 112 whole seconds
    expect(await current(instance)).toMatchObject({ billedSeconds: 112, billedMicroUsd: 112 * 850 });
    const rows = await usageRows(instance);
    expect(rows.map((r) => [r.seconds, r.microUsd]).sort()).toEqual([
      [52, 52 * 850],
      [60, 51_000],
    ]);
    expect(
      rows.every(
        (r) => r.tenantId === 'tenant-m' && r.mode === 'on-demand' && r.leaseId === instance.leaseId,
      ),
    ).toBe(true);
  });

  it('bills a repeated or late tick nothing', async () => {
    const instance = await openInstance();
    await tick(T0 + 172_750);
    await tick(T0 + 172_750);
    await tick(T0 + 112_750);
    expect(await current(instance)).toMatchObject({ billedSeconds: 172, billedMicroUsd: 172 * 850 });
    expect(await usageRows(instance)).toHaveLength(1);
  });

  it('bills a tick once when two runs race for it', async () => {
    const instance = await openInstance();
    await Promise.all([tick(T0 + 232_750), tick(T0 + 232_750), tick(T0 + 232_750)]);
    expect(await current(instance)).toMatchObject({ billedSeconds: 232 });
    expect(await usageRows(instance)).toHaveLength(1);
  });

  it('closes a bill at the exact end, adding up to the closed-form cost', async () => {
    const instance = await openInstance();
    await tick(T0 + 52_750);
    await tick(T0 + 112_750);
    const { closeInstanceBill } = await import('../../shared/usecases/metering');
    const endedAtMs = T0 + 125_100; // 125.1 s → 126 s billed
    const latest = (await current(instance)) as LeaseInstance;
    await closeInstanceBill(stores, latest, endedAtMs, () => current(instance));

    expect(await current(instance)).toBeUndefined();
    const rows = await usageRows(instance);
    const total = rows.reduce((sum, r) => sum + Number(r.microUsd), 0);
    expect(total).toBe(costOfRun(instance, endedAtMs));
    expect(total).toBe(126 * 850);
    // A closed instance is off the work list: later ticks add nothing.
    await tick(T0 + 600_000);
    expect(await usageRows(instance)).toHaveLength(rows.length);
  });
});

describe('month-to-date spend counters', () => {
  it('add every charge to the tenant, mode and project counters and the lease rollups, once, even when ticks repeat or race', async () => {
    const instance = await openInstance({ tenantId: 'tenant-counters', project: 'vision' });
    await tick(T0 + 52_750);
    await Promise.all([tick(T0 + 112_750), tick(T0 + 112_750)]);
    await tick(T0 + 112_750);

    const month = '2026-11';
    const [tenant, mode, project, otherMode] = await stores.spend.spendOf(
      (
        [
          { kind: 'tenant' },
          { kind: 'mode', mode: 'on-demand' },
          { kind: 'project', project: 'vision' },
          { kind: 'mode', mode: 'spot' },
        ] as const
      ).map((scope) => ({ tenantId: 'tenant-counters', month, scope })),
    );
    const rows = await usageRows(instance);
    const charged = rows.reduce((sum, r) => sum + Number(r.microUsd), 0);
    expect(charged).toBe(112 * 850);
    expect([tenant, mode, project, otherMode]).toEqual([charged, charged, charged, 0]);
    expect(rows.every((r) => r.project === 'vision')).toBe(true);
    expect(await stores.spend.leaseSpends('tenant-counters', month, 'vision')).toEqual([
      { leaseId: instance.leaseId, microUsd: charged },
    ]);
    expect(await stores.spend.leaseSpends('tenant-counters', month, 'speech')).toEqual([]);
  });
});

describe('a run that would not fit its invocation', () => {
  it('hands the rest to the metering work queue, and the queued share is charged up to the same instant', async () => {
    const instances = await Promise.all(
      Array.from({ length: 3 }, (_, i) =>
        openInstance({ tenantId: 'tenant-overflow', instanceId: `i-overflow-${i}` }),
      ),
    );
    // 10 s left: less than a chunk and the hand-over need, so nothing is charged here.
    const summary = (await handler(
      scheduledEvent('metering', T0 + 52_750, 'us-east-1'),
      lambdaContext('metering', 10_000),
    )) as { deferred: number; charged: number };
    expect(summary.deferred).toBeGreaterThanOrEqual(3);
    expect(summary.charged).toBe(0);

    const bodies = await awsProbe().receiveAll(env.METERING_WORK_QUEUE_URL ?? '');
    const work = bodies.map((body) => JSON.parse(body));
    expect(work.every((w) => w.atMs === T0 + 52_750)).toBe(true);
    const deferred = work.flatMap((w) => w.instances.map((i: { instanceId: string }) => i.instanceId));
    for (const instance of instances) expect(deferred).toContain(instance.instanceId);

    const result = await handler(
      { Records: bodies.map((body) => sqsRecord(body)) },
      lambdaContext('metering', 50_000),
    );
    expect(result).toEqual({ batchItemFailures: [] });
    for (const instance of instances) {
      expect(await current(instance)).toMatchObject({ billedSeconds: 60, billedMicroUsd: 51_000 });
    }
    // Delivered again (SQS is at-least-once), the work charges nothing more.
    await handler({ Records: bodies.map((body) => sqsRecord(body)) }, lambdaContext('metering', 50_000));
    for (const instance of instances) expect(await usageRows(instance)).toHaveLength(1);
  });
});

describe('the fleet as metering sees it (dashboard gauges)', () => {
  it('counts open GPUs by mode and the leases that hold them', async () => {
    const before = await tick(T0 + 3_600_000);
    const spot = await openInstance({
      mode: 'spot',
      launchedAtMs: T0 + 3_600_000,
      meteredUntilMs: T0 + 3_600_000,
    });
    await openInstance({
      mode: 'spot',
      leaseId: spot.leaseId,
      instanceId: `${spot.instanceId}b`,
      launchedAtMs: T0 + 3_600_000,
      meteredUntilMs: T0 + 3_600_000,
    });
    await openInstance({
      mode: 'spot',
      leaseId: spot.leaseId,
      instanceId: `${spot.instanceId}w`,
      instanceType: 'g5.12xlarge',
      region: 'us-west-2',
      launchedAtMs: T0 + 3_600_000,
      meteredUntilMs: T0 + 3_600_000,
    });
    const after = await tick(T0 + 3_660_000);
    const gauge = (summary: TickSummary, mode: string, region?: string) =>
      summary.fleet.find((g) => g.mode === mode && g.region === region) ?? { instances: 0, gpus: 0 };
    const added = (mode: string, region?: string) => ({
      instances: gauge(after, mode, region).instances - gauge(before, mode, region).instances,
      gpus: gauge(after, mode, region).gpus - gauge(before, mode, region).gpus,
    });
    expect(added('spot')).toEqual({ instances: 2, gpus: 2 });
    // A g5.12xlarge holds 4 GPUs: the dashboard's RunningGpus counts them, not the instance.
    expect(added('spot', 'us-west-2')).toEqual({ instances: 1, gpus: 4 });
    expect(added('on-demand')).toEqual({ instances: 0, gpus: 0 });
    expect(after.runningLeases - before.runningLeases).toBe(1);
  });
});
