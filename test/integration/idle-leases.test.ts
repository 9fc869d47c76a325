import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { beforeAll, describe, expect, it } from 'vitest';
import { publishGpuSamples } from '../../local/runtime/gpu-telemetry-publisher';
import { lambdaContext } from '../../local/runtime/lambda-context';
import { scheduledEvent } from '../../local/runtime/schedules';
import { subscribeToAlerts } from '../support/budgets';
import { emulatorEndpoints } from '../support/emulators';
import { subscribeToDomainEvents } from '../support/events';
import { type Harness, startHarness } from '../support/harness';

const MINUTE = 60_000;
const ADMIN = { 'cognito:groups': 'admin' };
const G5_XLARGE_MICRO_PER_HOUR = 1_006_000;

let harness: Harness;
let evaluator: typeof import('../../functions/scaling-evaluator/handler').handler;

beforeAll(async () => {
  harness = await startHarness();
  ({ handler: evaluator } = await import('../../functions/scaling-evaluator/handler'));
});

/** The evaluator's schedule firing at `atMs`: the idle evaluation rides in it. */
const evaluateAt = (atMs: number) =>
  evaluator(
    scheduledEvent('gpurent-scaling-evaluator', atMs, 'us-east-1'),
    lambdaContext('evaluator', 60_000),
  );

/** One sample a minute, 5 s into each minute of [fromMs, toMs), for GPU i at `percents[i]`. */
const publish = (
  gpu: { tenantId: string; leaseId: string; instanceId: string },
  fromMs: number,
  toMs: number,
  percents: readonly number[],
) =>
  publishGpuSamples(
    new CloudWatchClient({}),
    Array.from({ length: (toMs - fromMs) / MINUTE }, (_, m) => fromMs + m * MINUTE).flatMap((minuteMs) =>
      percents.map((utilizationPercent, gpuIndex) => ({
        ...gpu,
        gpuIndex,
        atMs: minuteMs + 5_000,
        utilizationPercent,
        memoryUsedMiB: 1_000,
        memoryTotalMiB: 24_000,
        temperatureC: 45,
        powerW: 60,
      })),
    ),
  );

const putAdminPolicy = (tenantId: string, body: Record<string, unknown>) =>
  harness.call('ops', 'PUT /v1/admin/tenants/{tenantId}/idle-policy', {
    params: { tenantId },
    body,
    claims: ADMIN,
  });

const firstFullMinute = (ms: number) => Math.ceil(ms / MINUTE) * MINUTE;

describe('idle GPUs on the local stack (real handlers, moto CloudWatch)', () => {
  it('keeps a 4-GPU lease with one busy GPU; with all four idle it is notified once and released under release', async () => {
    const tenant = 'tenant-idle4';
    expect((await putAdminPolicy(tenant, { action: 'release', forMinutes: 10 })).status).toBe(200);
    const notices = await subscribeToAlerts(harness.env.BUDGET_ALERTS_TOPIC_ARN ?? '', { kind: ['idle'] });
    const integrator = await subscribeToDomainEvents(
      emulatorEndpoints().events,
      harness.env.EVENT_BUS_NAME ?? '',
    );
    const { leaseId, instances } = await harness.runningLease(tenant, {
      workload: 'training',
      gpus: 4,
      instanceType: 'g5.12xlarge',
      mode: 'on-demand',
    });
    expect(instances).toHaveLength(1);
    const instanceId = instances[0]?.instanceId ?? '';
    const m0 = firstFullMinute(instances[0]?.launchedAtMs ?? 0);

    // Three GPUs at 1%, the fourth at 80%: a lease is idle only when every GPU is.
    await publish({ tenantId: tenant, leaseId, instanceId }, m0, m0 + 12 * MINUTE, [1, 1, 1, 80]);
    await evaluateAt(m0 + 14 * MINUTE);
    expect(await notices.drain()).toEqual([]);
    expect((await harness.stores.leases.get(tenant, leaseId))?.status).toBe('RUNNING');

    // Then all four below 5% for the policy's ten minutes (and the telemetry delay).
    await publish(
      { tenantId: tenant, leaseId, instanceId },
      m0 + 12 * MINUTE,
      m0 + 26 * MINUTE,
      [1, 2, 0, 3],
    );
    await evaluateAt(m0 + 27 * MINUTE);
    await evaluateAt(m0 + 28 * MINUTE);
    const sent = await notices.drain();
    expect(sent).toHaveLength(1);
    expect(sent[0]?.attributes).toMatchObject({ tenant, leaseId, kind: 'idle', action: 'release' });
    const lease = await harness.stores.leases.get(tenant, leaseId);
    expect(lease?.status).not.toBe('RUNNING');
    expect(lease?.releaseReason).toMatch(/^Idle: all 4 GPU\(s\) below 5% utilization for 10 minutes/);
    const idleEvents = (await integrator.drain()).filter((e) => e['detail-type'] === 'LeaseIdle');
    expect(idleEvents.map((e) => e.detail)).toEqual([
      expect.objectContaining({ leaseId, gpus: 4, action: 'release', belowPercent: 5, forMinutes: 10 }),
    ]);
  });

  it('does not let a tenant lift or loosen an admin policy', async () => {
    const tenant = 'tenant-bound';
    expect(
      (await putAdminPolicy(tenant, { action: 'release', belowPercent: 10, forMinutes: 30 })).status,
    ).toBe(200);
    for (const body of [
      { action: 'notify' },
      { action: 'release', belowPercent: 5 },
      { action: 'release', belowPercent: 10, forMinutes: 60 },
    ]) {
      const refused = await harness.call(tenant, 'PUT /v1/idle-policy', { body });
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe('IDLE_POLICY_LOOSER_THAN_ADMIN');
    }
    // The tenant has no policy of its own to delete; the admin's cannot be reached from its routes.
    expect((await harness.call(tenant, 'DELETE /v1/idle-policy')).status).toBe(404);
    expect(
      (
        await harness.call(tenant, 'DELETE /v1/admin/tenants/{tenantId}/idle-policy', {
          params: { tenantId: tenant },
        })
      ).status,
    ).toBe(403);
    const view = await harness.call(tenant, 'GET /v1/idle-policy');
    expect(view.body.tenant).toBeNull();
    expect(view.body.effective).toMatchObject({ action: 'release', belowPercent: 10, forMinutes: 30 });
  });

  it('records as idle cost exactly the billed seconds below the line, to the micro-dollar, and the audit shows it', async () => {
    const tenant = 'tenant-ledger';
    const { leaseId, instances } = await harness.runningLease(tenant, {
      workload: 'training',
      gpus: 1,
      instanceType: 'g5.xlarge',
      mode: 'on-demand',
      project: 'vision',
    });
    const instanceId = instances[0]?.instanceId ?? '';
    const launched = instances[0]?.launchedAtMs ?? 0;
    const m0 = firstFullMinute(launched);
    // Busy (50%) for two minutes, below the default 5% line for ten, busy again for six.
    const gpu = { tenantId: tenant, leaseId, instanceId };
    await publish(gpu, m0, m0 + 2 * MINUTE, [50]);
    await publish(gpu, m0 + 2 * MINUTE, m0 + 12 * MINUTE, [2]);
    await publish(gpu, m0 + 12 * MINUTE, m0 + 18 * MINUTE, [50]);
    await harness.tick(launched + 20 * MINUTE);
    await evaluateAt(m0 + 20 * MINUTE);

    // By hand: ten whole idle minutes, 600 s of one GPU at $1.006/h = 167,666.67 µ$, rounded half up.
    const idleMicroUsd = Math.floor((600 * G5_XLARGE_MICRO_PER_HOUR + 1800) / 3600);
    expect(idleMicroUsd).toBe(167_667);
    const { DynamoDbIdleLedger } = await import('../../shared/adapters/dynamodb-idle-ledger');
    const ledger = new DynamoDbIdleLedger(harness.stores.documents, harness.env.SPEND_TABLE_NAME ?? '');
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const rows = await ledger.dailyIdle(tenant, day(launched), day(m0 + 20 * MINUTE));
    const sum = (kind: string) =>
      rows
        .filter((r) => r.kind === kind)
        .reduce((t, r) => ({ s: t.s + r.idleGpuSeconds, u: t.u + r.idleMicroUsd }), { s: 0, u: 0 });
    expect(sum('tenant')).toEqual({ s: 600, u: idleMicroUsd });
    expect(sum('project')).toEqual({ s: 600, u: idleMicroUsd });
    expect(sum('lease')).toEqual({ s: 600, u: idleMicroUsd });

    const month = day(m0 + 20 * MINUTE).slice(0, 7);
    const audit = await harness.call(tenant, 'GET /v1/audit/{month}', { params: { month } });
    expect(audit.status).toBe(200);
    expect(audit.body.idle).toMatchObject({
      source: 'idle-ledger',
      idleMicroUsd,
      byProject: [{ project: 'vision', idleMicroUsd }],
      idlestLeases: [{ leaseId, project: 'vision', idleMicroUsd }],
    });
    // Half of the 20 billed minutes idle: past the 20% the audit flags.
    expect(audit.body.findings).toContainEqual(expect.stringContaining('GPUs sat idle'));
  });
});
