import { fileURLToPath } from 'node:url';
import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { beforeAll, describe, expect, it } from 'vitest';
import { type GpuSample, publishGpuSamples } from '../../local/runtime/gpu-telemetry-publisher';
import { lambdaContext } from '../../local/runtime/lambda-context';
import { scheduledEvent } from '../../local/runtime/schedules';
import { DynamoDbAuditStore, DynamoDbChargedTenants } from '../../shared/adapters/dynamodb-audit-store';
import type { MonthlyAudit } from '../../shared/domain/audit/monthly-audit';
import type { LeaseInstance, RentalMode, Workload } from '../../shared/domain/lease';
import { awsProbe } from '../support/aws';
import { type ReceivedAlert, subscribeToAlerts } from '../support/budgets';
import { emulatorEndpoints } from '../support/emulators';
import { subscribeToDomainEvents } from '../support/events';
import { type Harness, startHarness } from '../support/harness';
import { storedLease } from '../support/leases';

// One spot zone, always with capacity at $1.00/h: the recommendation can be checked by hand.
process.env.SPOT_DATA_DIR = fileURLToPath(new URL('../fixtures/audit/spot-data', import.meta.url));

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const OCT = Date.parse('2026-10-01T00:00:00Z');
const NOV = Date.parse('2026-11-01T00:00:00Z');
const ACME = 'tenant-acme';
const OTHER = 'tenant-other';
const G5_ON_DEMAND = 1_006_000; // g5.xlarge, us-east-1, µ$/h
const SPOT_PRICE = 400_000;
const G5_RESERVED = 634_000; // µ$/h, the commitment's effective rate

let harness: Harness;
let auditFn: typeof import('../../functions/audit/handler').handler;

async function ranLease(
  tenantId: string,
  workload: Workload,
  gpus: number,
  mode: RentalMode,
  fromMs: number,
  toMs: number,
) {
  const lease = await storedLease(harness.stores.leases, {
    tenantId,
    workload,
    gpus,
    status: 'RELEASED',
    createdAtMs: fromMs,
  });
  const instances: LeaseInstance[] = Array.from({ length: gpus }, (_, n) => ({
    tenantId,
    leaseId: lease.leaseId,
    instanceId: `i-${lease.leaseId.slice(-8)}-${n}`,
    instanceType: 'g5.xlarge',
    mode,
    zone: 'us-east-1a',
    priceMicroUsdPerHour: mode === 'spot' ? SPOT_PRICE : G5_ON_DEMAND,
    launchedAtMs: fromMs,
    endedAtMs: toMs,
    meteredUntilMs: fromMs,
    billedSeconds: 0,
    billedMicroUsd: 0,
    meteringOpen: true,
  }));
  await harness.stores.leases.recordInstances(instances);
  return instances;
}

/** The agent's per-minute utilization samples of one GPU, at `atMs` + n minutes. */
const samples = (
  gpu: Pick<GpuSample, 'tenantId' | 'leaseId' | 'instanceId'>,
  atMs: number,
  percents: readonly number[],
): GpuSample[] =>
  percents.map((utilizationPercent, n) => ({
    ...gpu,
    gpuIndex: 0,
    atMs: atMs + n * 60_000,
    utilizationPercent,
    memoryUsedMiB: 1000,
    memoryTotalMiB: 24_000,
    temperatureC: 60,
    powerW: 150,
  }));

const fireAudit = (atMs: number) =>
  auditFn(scheduledEvent('gpurent-audit', atMs, 'us-east-1'), lambdaContext('audit', 300_000));

beforeAll(async () => {
  harness = await startHarness();
  auditFn = (await import('../../functions/audit/handler')).handler;
  const [training] = await ranLease(ACME, 'training', 1, 'on-demand', OCT + 2 * DAY, OCT + 5 * DAY); // 72 GPU-h
  const [reclaimed] = await ranLease(ACME, 'batch', 2, 'spot', OCT + 9 * DAY, OCT + 11 * DAY); // 96 GPU-h on spot
  await ranLease(ACME, 'batch', 1, 'on-demand', OCT + 19 * DAY, OCT + 20 * DAY); // 24 GPU-h
  await ranLease(OTHER, 'inference', 1, 'on-demand', OCT + 4 * DAY, OCT + 5 * DAY); // 24 GPU-h
  // Spot warned one of the batch instances on Oct 11 (as the interruption handler stamps it).
  await harness.stores.leases.stampInstance(reclaimed as LeaseInstance, 'interruptedAtMs', OCT + 10 * DAY);
  // Telemetry of the training GPU on Oct 3 only: 30% and 50% at 10:00, 90% at 11:00 UTC.
  if (!training) throw new Error('the training lease ran no instance');
  const trainingGpu = training;
  await publishGpuSamples(new CloudWatchClient({}), [
    ...samples(trainingGpu, OCT + 2 * DAY + 10 * HOUR, [30, 50]),
    ...samples(trainingGpu, OCT + 2 * DAY + 11 * HOUR, [90]),
  ]);
  // A fleet commitment no lease of this test uses: idle all October.
  await harness.stores.commitments.put({
    id: 'oct-g5',
    instanceType: 'g5.xlarge',
    region: 'us-east-1',
    zone: 'us-east-1a',
    count: 1,
    gpusPerInstance: 1,
    hourlyMicroUsd: G5_RESERVED,
    startMs: OCT,
    endMs: NOV,
  });
  // Metering as it ran: one tick a day (each charges the day before), the last one at midnight on the 1st.
  for (let at = OCT + DAY; at <= NOV; at += DAY) await harness.tick(at);
}, 180_000);

describe('GET /v1/audit/{month}', () => {
  it('reports cost and share by mode, spot savings and the planner recommendation', async () => {
    const { status, body } = await harness.call(ACME, 'GET /v1/audit/{month}', {
      params: { month: '2026-10' },
    });
    expect(status).toBe(200);
    const audit = body as MonthlyAudit;
    const onDemand = 96 * G5_ON_DEMAND;
    const spot = 96 * SPOT_PRICE;
    expect(audit).toMatchObject({
      tenantId: ACME,
      month: '2026-10',
      complete: true,
      costMicroUsd: onDemand + spot,
    });
    expect(audit.byMode).toEqual([
      { mode: 'on-demand', seconds: 96 * 3600, costMicroUsd: onDemand, share: onDemand / (onDemand + spot) },
      { mode: 'reserved', seconds: 0, costMicroUsd: 0, share: 0 },
      { mode: 'spot', seconds: 96 * 3600, costMicroUsd: spot, share: spot / (onDemand + spot) },
    ]);
    expect(audit.daily).toHaveLength(31);
    // Each day's cost by mode adds up to the month's; a whole day of the spot lease is 48 GPU-h.
    for (const { mode, costMicroUsd } of audit.byMode) {
      expect(audit.daily.reduce((sum, d) => sum + d.costMicroUsd[mode], 0)).toBe(costMicroUsd);
    }
    expect(audit.daily.find((d) => d.day === '2026-10-11')?.costMicroUsd).toEqual({
      'on-demand': 0,
      reserved: 0,
      spot: 48 * SPOT_PRICE,
    });
    expect(audit.spotSavings).toMatchObject({
      spotSeconds: 96 * 3600,
      savingMicroUsd: 96 * G5_ON_DEMAND - spot,
    });
    // The commitment sat idle all 744 hours of October, recorded tick by tick.
    expect(audit.reserved).toEqual({
      source: 'reservations',
      scope: 'fleet',
      commitments: 1,
      gpus: 1,
      idleGpuHours: 744,
      idleMicroUsd: 744 * G5_RESERVED,
    });
    expect(audit.interruptions).toEqual({
      source: 'interruption-notices',
      count: 1,
      byWorkload: { batch: 1 },
    });
    expect(audit.findings).toHaveLength(2);
    expect(audit.concurrency.gpus).toHaveLength(31 * 24);
    expect(Math.max(...audit.concurrency.gpus)).toBe(2);
    // From moto's CloudWatch: 40% at 10:00, 90% at 11:00, every other hour without telemetry.
    expect(audit.utilization.byHourOfDay).toEqual(
      Array.from({ length: 24 }, (_, hour) => (hour === 10 ? 40 : hour === 11 ? 90 : null)),
    );
    expect(audit.utilization.month).toEqual({
      percent: 56.7,
      telemetry: 'partial',
      measuredGpuHours: 0.05,
      gpusWithoutTelemetry: 3,
    });

    // Model: p3.2xlarge $3.06/h on-demand, spot $1.00/h. As ran: 96 GPU-h on-demand + 96 on spot;
    // the policy puts the on-demand batch lease (24 GPU-h) on spot; 72 h of training in 744 reserves nothing.
    const r = audit.recommendation;
    expect(r).toMatchObject({
      reservedGpus: 0,
      spotCandidates: [{ workload: 'batch', leases: 1, gpuHours: 24 }],
      asRanMicroUsd: 96 * 3_060_000 + 96 * 1_000_000,
      policySavingMicroUsd: 24 * 2_060_000,
    });
    expect(r?.savingShare).toBeCloseTo((24 * 2.06) / (96 * 3.06 + 96), 12);
    expect(r?.estimatedSavingOfPaidMicroUsd).toBe(Math.round((onDemand + spot) * (r?.savingShare ?? 0)));
    expect(r?.model.note).toMatch(/own model's prices.*p3\.2xlarge/);
  });

  it("never shows one tenant another's audit", async () => {
    const { body } = await harness.call(OTHER, 'GET /v1/audit/{month}', { params: { month: '2026-10' } });
    expect(body).toMatchObject({ tenantId: OTHER, costMicroUsd: 24 * G5_ON_DEMAND });
    expect(body.interruptions.count).toBe(0);
    expect(body.utilization.month).toMatchObject({
      percent: null,
      telemetry: 'none',
      gpusWithoutTelemetry: 1,
    });
    expect(body.recommendation.spotCandidates).toEqual([]);
    const stranger = await harness.call('tenant-none', 'GET /v1/audit/{month}', {
      params: { month: '2026-10' },
    });
    expect(stranger.body).toMatchObject({ tenantId: 'tenant-none', costMicroUsd: 0, recommendation: null });
  });

  it.each([
    ['2026-13', 'INVALID_MONTH'],
    ['2026-1', 'INVALID_MONTH'],
    ['october', 'INVALID_MONTH'],
    ['2099-01', 'MONTH_IN_FUTURE'],
  ])('refuses month %s with 400 %s', async (month, code) => {
    for (const route of ['GET /v1/audit/{month}', 'GET /v1/audit/{month}/report.html']) {
      const { status, body } = await harness.call(ACME, route, { params: { month } });
      expect(status).toBe(400);
      expect(body.error).toMatchObject({ code, details: [{ path: 'month' }] });
    }
  });

  it('serves the report page as self-contained HTML', async () => {
    const { status, body } = await harness.call(ACME, 'GET /v1/audit/{month}/report.html', {
      params: { month: '2026-10' },
    });
    expect(status).toBe(200);
    expect(body).toMatch(/^<!doctype html>/);
    expect(body).toContain('data-chart="daily-cost"');
    expect(body).toContain('<rect data-hour="10" data-percent="40"');
    expect(body).not.toMatch(/<script|https?:\/\//);
  });
});

describe('the audit schedule on the 1st', () => {
  let alerts: { drain: () => Promise<ReceivedAlert[]> };
  let integrator: Awaited<ReturnType<typeof subscribeToDomainEvents>>;

  beforeAll(async () => {
    alerts = await subscribeToAlerts(harness.env.BUDGET_ALERTS_TOPIC_ARN ?? '', { kind: ['audit'] });
    integrator = await subscribeToDomainEvents(emulatorEndpoints().events, harness.env.EVENT_BUS_NAME ?? '');
  });

  it('stores, announces and publishes AuditReady once per tenant, even when fired twice', async () => {
    const firedAt = Date.parse('2026-11-01T00:30:00Z');
    const first = await fireAudit(firedAt);
    const second = await fireAudit(firedAt);
    const tenants = new DynamoDbChargedTenants(harness.stores.documents, harness.env.SPEND_TABLE_NAME ?? '');
    expect(await tenants.chargedIn('2026-10')).toEqual([ACME, OTHER]);
    expect(await tenants.chargedIn('2026-09')).toEqual([]);
    expect(first).toEqual({ month: '2026-10', tenants: 2, stored: 2, announced: 2 });
    expect(second).toEqual({ month: '2026-10', tenants: 2, stored: 0, announced: 0 });

    const items = await awsProbe().scan(harness.env.AUDITS_TABLE_NAME ?? '');
    expect(items.map((item) => [item.pk, item.sk]).sort()).toEqual([
      [`TENANT#${ACME}`, 'AUDIT#2026-10'],
      [`TENANT#${OTHER}`, 'AUDIT#2026-10'],
    ]);
    const { body } = await harness.call(ACME, 'GET /v1/audit/{month}', { params: { month: '2026-10' } });
    expect(body.generatedAt).toBe('2026-11-01T00:30:00.000Z');
    expect(body.costMicroUsd).toBe(96 * G5_ON_DEMAND + 96 * SPOT_PRICE);

    const messages = await alerts.drain();
    expect(messages.map((m) => m.attributes.tenant).sort()).toEqual([ACME, OTHER]);
    const acme = messages.find((m) => m.attributes.tenant === ACME);
    expect(acme?.attributes).toMatchObject({ kind: 'audit', month: '2026-10' });
    expect(acme?.subject).toBe('gpurent audit 2026-10: $134.98');
    expect(acme?.body).toContain('move to spot: batch (24 GPU-h)');

    const events = (await integrator.drain()).filter((e) => e['detail-type'] === 'AuditReady');
    expect(events.map((e) => e.detail.tenantId).sort()).toEqual([ACME, OTHER]);
    expect(events.find((e) => e.detail.tenantId === ACME)?.detail).toMatchObject({
      month: '2026-10',
      auditId: acme?.attributes.auditId,
      costMicroUsd: 96 * G5_ON_DEMAND + 96 * SPOT_PRICE,
    });
  });

  it('lets a later run take over only a claim left unfinished past the grace', async () => {
    const store = new DynamoDbAuditStore(harness.stores.documents, harness.env.AUDITS_TABLE_NAME ?? '');
    const month = '2026-09';
    const audit = { tenantId: ACME, month } as MonthlyAudit;
    await store.putIfAbsent(audit);
    // A run claimed at t and died before announcing: a run within the grace leaves it alone.
    const t = Date.parse('2026-10-01T00:30:00Z');
    expect(await store.claimAnnouncement(ACME, month, t, t - 120_000)).toBe(true);
    expect(await store.claimAnnouncement(ACME, month, t + 60_000, t + 60_000 - 120_000)).toBe(false);
    expect(await store.claimAnnouncement(ACME, month, t + 180_000, t + 180_000 - 120_000)).toBe(true);
    await store.markAnnounced(ACME, month, t + 181_000);
    expect(await store.claimAnnouncement(ACME, month, t + 999_000, t + 999_000)).toBe(false);
    expect(await store.get(ACME, month)).toMatchObject({
      claimedAtMs: t + 180_000,
      announcedAtMs: t + 181_000,
    });
    // That audit has an earlier shape (no findings, no utilization figures): GET builds it again.
    const { status, body } = await harness.call(ACME, 'GET /v1/audit/{month}', { params: { month } });
    expect(status).toBe(200);
    expect(body).toMatchObject({ tenantId: ACME, month, costMicroUsd: 0, findings: [] });
    expect(body.utilization.month.telemetry).toBe('none');
  });
});
