import { beforeAll, describe, expect, it } from 'vitest';
import { subscribeToAlerts } from '../support/budgets';
import { emulatorEndpoints } from '../support/emulators';
import { subscribeToDomainEvents } from '../support/events';
import { type Harness, startHarness } from '../support/harness';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
});

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const MINUTE = 60_000;
const LEASE = { workload: 'training', gpus: 1, mode: 'on-demand' } as const;

async function leases(tenant: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) ids.push((await harness.runningLease(tenant, LEASE)).leaseId);
  return ids;
}

describe('spend anomalies over SNS, driven by the metering handler', () => {
  it('raises exactly one alert within 3 runs of a 5x jump on a replayed baseline, none on the unmodified replay, a new tenant or one turned off', async () => {
    const topic = harness.env.BUDGET_ALERTS_TOPIC_ARN ?? '';
    const alerts = await subscribeToAlerts(topic, { kind: ['anomaly'] });
    const integrator = await subscribeToDomainEvents(
      emulatorEndpoints().events,
      harness.env.EVENT_BUS_NAME ?? '',
    );
    // One g5.xlarge on-demand ($1.006/h) each: the jump, the unmodified replay, and one turned off.
    const [jumpFirst = ''] = await leases('tenant-jump', 1);
    await leases('tenant-steady', 1);
    await leases('tenant-off', 1);
    const off = await harness.call('tenant-off', 'PUT /v1/spend-anomaly-settings', {
      body: { enabled: false },
    });
    expect(off.body).toEqual({ tenant: { sensitivity: 'medium', enabled: false }, projects: {} });

    // The replayed week, on the metering clock: the baseline keeps each clock hour's peak rate,
    // so one run in each of the three hours around the jump's hour (its slot and the neighbours
    // its spread is taken over) stands for that hour's sixty runs of the same rate.
    const launched = (await harness.stores.leases.get('tenant-jump', jumpFirst))?.instances[0]?.launchedAtMs;
    const jumpHour = Math.floor((launched ?? 0) / HOUR) * HOUR + 2 * HOUR + 7 * DAY;
    for (let day = 7; day >= 1; day -= 1) {
      for (const hour of [-1, 0, 1]) await harness.tick(jumpHour - day * DAY + hour * HOUR + 30 * MINUTE);
    }
    await harness.tick(jumpHour - HOUR + 30 * MINUTE);
    expect(await alerts.drain()).toEqual([]);

    // The jump: four more leases, 5x the rate; a new tenant spends as much with no baseline.
    const added = await leases('tenant-jump', 4);
    await leases('tenant-off', 4);
    await leases('tenant-new', 2);
    const received = [];
    for (const run of [0, 1, 2]) {
      await harness.tick(jumpHour + run * MINUTE);
      received.push(...(await alerts.drain()));
    }
    expect(received).toHaveLength(1);
    const [alert] = received;
    expect(alert?.attributes).toEqual({
      tenant: 'tenant-jump',
      kind: 'anomaly',
      month: new Date(jumpHour + 2 * MINUTE).toISOString().slice(0, 7),
      alertId: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    expect(alert?.subject).toBe('gpurent: spend anomaly for tenant-jump (all leases)');
    expect(alert?.body).toContain('Spend rate of all leases is $5.03/h, above its usual $1.006/h');
    for (const leaseId of [jumpFirst, ...added]) expect(alert?.body).toContain(leaseId);

    // The episode lasts: later runs in excess send nothing more.
    for (const run of [3, 4, 5]) await harness.tick(jumpHour + run * MINUTE);
    expect(await alerts.drain()).toEqual([]);

    const anomalies = (await integrator.drain()).filter((e) => e['detail-type'] === 'SpendAnomaly');
    expect(anomalies).toHaveLength(1);
    expect(anomalies[0]?.detail).toMatchObject({
      tenantId: 'tenant-jump',
      rateMicroUsdPerHour: 5 * 1_006_000,
      expectedMicroUsdPerHour: 1_006_000,
      alertId: alert?.attributes.alertId,
    });
    expect([...((anomalies[0]?.detail.leaseIds as string[]) ?? [])].sort()).toEqual(
      [jumpFirst, ...added].sort(),
    );
  }, 600_000);

  it('refuses bad settings with 400 and a code, storing nothing', async () => {
    const tenant = 'tenant-settings';
    for (const body of [
      { sensitivity: 'extreme' },
      { enabled: 'no' },
      { project: 'Not A Label' },
      { sensitivity: 'low', threshold: 3 },
    ]) {
      const refused = await harness.call(tenant, 'PUT /v1/spend-anomaly-settings', { body });
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe('VALIDATION_FAILED');
    }
    const none = await harness.call(tenant, 'GET /v1/spend-anomaly-settings');
    expect(none.body).toEqual({ tenant: { sensitivity: 'medium', enabled: true }, projects: {} });

    const put = await harness.call(tenant, 'PUT /v1/spend-anomaly-settings', {
      body: { project: 'vision', sensitivity: 'high' },
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({
      tenant: { sensitivity: 'medium', enabled: true },
      projects: { vision: { sensitivity: 'high', enabled: true } },
    });
  });
});
