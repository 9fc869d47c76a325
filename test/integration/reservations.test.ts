import type { APIGatewayProxyStructuredResultV2, SQSRecord } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiEvent } from '../../local/runtime/api-event';
import { lambdaContext } from '../../local/runtime/lambda-context';
import { scheduledEvent } from '../../local/runtime/schedules';
import type { Lease } from '../../shared/domain/lease';
import { COMMITMENT_TAG, LEASE_TAG } from '../../shared/ports/compute';
import type { LeaseRepository } from '../../shared/ports/lease-repository';
import { awsProbe } from '../support/aws';
import { storesOf, useFreshResources } from '../support/function-env';
import { commandRecord, storedLease } from '../support/leases';

let env: Record<string, string>;
let api: typeof import('../../functions/api/handler').handler;
let worker: typeof import('../../functions/lease-worker/handler').handler;
let metering: typeof import('../../functions/metering/handler').handler;
let leases: LeaseRepository;

beforeAll(async () => {
  env = await useFreshResources();
  ({ handler: api } = await import('../../functions/api/handler'));
  ({ handler: worker } = await import('../../functions/lease-worker/handler'));
  ({ handler: metering } = await import('../../functions/metering/handler'));
  ({ leases } = await storesOf(env));
});

const HOUR = 3_600_000;
const deliver = (...records: SQSRecord[]) =>
  worker({ Records: records }, lambdaContext('lease-worker', 120_000));

async function admin(routeKey: string, id: string, body?: unknown, groups = '[admin]') {
  const [, template = ''] = routeKey.split(' ');
  const result = (await api(
    apiEvent({
      routeKey,
      path: template.replace('{id}', id),
      headers: { 'content-type': 'application/json' },
      pathParameters: { id },
      body: body === undefined ? undefined : JSON.stringify(body),
      claims: { sub: 'op', 'custom:tenant': 'ops', 'cognito:groups': groups },
    }),
    lambdaContext('api', 29_000),
  )) as APIGatewayProxyStructuredResultV2;
  return { status: result.statusCode, body: result.body ? JSON.parse(result.body) : undefined };
}

/** One g6.12xlarge (4 L4 GPUs) committed at $3.60/h for 30 days from `startMs`, nothing running on it. */
const putIdleCommitment = (id: string, startMs: number) =>
  admin('PUT /v1/admin/reservations/{id}', id, {
    instanceType: 'g6.12xlarge',
    region: 'us-east-1',
    zone: 'us-east-1a',
    count: 1,
    hourlyRate: 3.6,
    start: new Date(startMs).toISOString(),
    end: new Date(startMs + 30 * 24 * HOUR).toISOString(),
  });
const meteringTick = (atMs: number) =>
  metering(scheduledEvent('metering', atMs, 'us-east-1'), lambdaContext('metering', 60_000));

const window = () => ({
  start: new Date(Date.now() - HOUR).toISOString(),
  end: new Date(Date.now() + 30 * 24 * HOUR).toISOString(),
});
const reservation = (extra: Record<string, unknown> = {}) => ({
  instanceType: 'g6e.xlarge',
  region: 'us-east-1',
  zone: 'us-east-1b',
  count: 2,
  hourlyRate: 1.1,
  ...window(),
  ...extra,
});

const commitmentRows = async () =>
  (await awsProbe().scan(env.LEASES_TABLE_NAME ?? '')).filter((r) => r.entity === 'commitment');

describe('reservations API', () => {
  it.each([
    ['end before start', { start: '2026-12-02T00:00:00Z', end: '2026-12-01T00:00:00Z' }, 'VALIDATION_FAILED'],
    ['a negative count', { count: -1 }, 'VALIDATION_FAILED'],
    ['an unknown region', { region: 'eu-west-1', zone: 'eu-west-1a' }, 'UNKNOWN_REGION'],
    ['a zone of another region', { zone: 'us-west-2a' }, 'INVALID_RESERVATION'],
    ['a zone that does not exist', { zone: 'us-east-1z' }, 'INVALID_RESERVATION'],
    ['a type not sold in the region', { instanceType: 'z9.huge' }, 'INVALID_RESERVATION'],
    ['a malformed capacity reservation id', { capacityReservationId: 'cr-nothex' }, 'VALIDATION_FAILED'],
  ])('refuses %s with 400 and a code, writing nothing', async (_case, extra, code) => {
    const response = await admin('PUT /v1/admin/reservations/{id}', 'bad-one', reservation(extra));
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe(code);
    expect(await commitmentRows()).toEqual([]);
  });

  it('refuses an id outside [a-z0-9._-]{1,64} and a tenant token', async () => {
    expect((await admin('PUT /v1/admin/reservations/{id}', 'Bad Id', reservation())).body.error.code).toBe(
      'INVALID_RESERVATION_ID',
    );
    const tenant = await admin('PUT /v1/admin/reservations/{id}', 'r-tenant', reservation(), '');
    expect(tenant.status).toBe(403);
    expect(tenant.body.error.code).toBe('ADMIN_REQUIRED');
    expect(await commitmentRows()).toEqual([]);
  });
});

describe('leases on a reserved commitment', () => {
  it('carries training on the commitment at its rate, frees the slot on release, then falls back to on-demand when full', async () => {
    const put = await admin('PUT /v1/admin/reservations/{id}', 'g6e-east', reservation());
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ committedGpus: 2, usedGpus: 0, hourlyRateUsd: 1.1 });

    const first = await storedLease(leases, { tenantId: 'tenant-res', instanceType: 'g6e.xlarge', gpus: 2 });
    await deliver(commandRecord('provision', first));
    const running = await leases.get(first.tenantId, first.leaseId);
    expect(running?.placement).toMatchObject({ mode: 'reserved', zone: 'us-east-1b', instances: 2 });
    expect(running?.placement?.reason).toMatch(/^training fits the reserved commitment/);
    expect(running?.instances.map((i) => [i.mode, i.priceMicroUsdPerHour, i.commitmentId])).toEqual([
      ['reserved', 1_100_000, 'g6e-east'],
      ['reserved', 1_100_000, 'g6e-east'],
    ]);
    const [tagged] = await awsProbe().instancesTagged(LEASE_TAG, first.leaseId);
    expect(tagged?.Tags?.find((t) => t.Key === COMMITMENT_TAG)?.Value).toBe('g6e-east');
    expect((await admin('GET /v1/admin/reservations/{id}', 'g6e-east')).body).toMatchObject({
      usedGpus: 2,
      leases: 1,
    });

    // Full: the next training lease runs on-demand, with the reason.
    const second: Lease = await storedLease(leases, {
      tenantId: 'tenant-res',
      instanceType: 'g6e.xlarge',
      gpus: 1,
    });
    await deliver(commandRecord('provision', second));
    const onDemand = await leases.get(second.tenantId, second.leaseId);
    expect(onDemand?.placement).toMatchObject({ mode: 'on-demand' });
    expect(onDemand?.placement?.reason).toMatch(/^training; no free reserved GPUs/);

    // Deleting a held commitment is refused.
    expect((await admin('DELETE /v1/admin/reservations/{id}', 'g6e-east')).status).toBe(409);

    await leases.transition(first.tenantId, first.leaseId, ['RUNNING'], 'RELEASING', Date.now());
    await deliver(commandRecord('release', first));
    expect((await admin('GET /v1/admin/reservations/{id}', 'g6e-east')).body).toMatchObject({
      usedGpus: 0,
      leases: 0,
    });

    // The freed slots carry the next lease.
    const third = await storedLease(leases, { tenantId: 'tenant-res', instanceType: 'g6e.xlarge', gpus: 1 });
    await deliver(commandRecord('provision', third));
    expect((await leases.get(third.tenantId, third.leaseId))?.placement?.mode).toBe('reserved');
  });

  it('records idle reserved GPU time at each metering tick, once', async () => {
    const startMs = Date.parse('2026-11-30T00:00:00Z');
    await putIdleCommitment('idle-l4', startMs);
    await meteringTick(startMs + HOUR);
    await meteringTick(startMs + HOUR); // redelivered: nothing twice
    const rows = (await awsProbe().scan(env.USAGE_TABLE_NAME ?? '')).filter(
      (r) => r.commitmentId === 'idle-l4',
    );
    // 4 idle GPUs for an hour, one idle instance-hour at $3.60.
    expect(rows.map((r) => [r.idleGpuSeconds, r.idleMicroUsd])).toEqual([[4 * 3600, 3_600_000]]);
    expect((await admin('GET /v1/admin/reservations/{id}', 'idle-l4')).body.idleRecordedUntil).toBe(
      new Date(startMs + HOUR).toISOString(),
    );
    expect((await admin('DELETE /v1/admin/reservations/{id}', 'idle-l4')).status).toBe(204);
    expect((await admin('GET /v1/admin/reservations/{id}', 'idle-l4')).status).toBe(404);
  });

  it("splits idle time at the month's end and keeps each month's total for the audit", async () => {
    const startMs = Date.parse('2026-11-30T23:00:00Z');
    await putIdleCommitment('idle-split', startMs);
    // One late tick two hours on: an hour of November and an hour of December.
    await meteringTick(startMs + 2 * HOUR);
    await meteringTick(startMs + 2 * HOUR);
    await meteringTick(startMs + 3 * HOUR);
    const { commitments } = await storesOf(env);
    const of = async (month: string) =>
      (await commitments.idleInMonth(month)).find((idle) => idle.commitmentId === 'idle-split');
    expect(await of('2026-11')).toEqual({
      commitmentId: 'idle-split',
      instanceType: 'g6.12xlarge',
      committedGpus: 4,
      hourlyMicroUsd: 3_600_000,
      idleGpuSeconds: 4 * 3600,
      idleMicroUsd: 3_600_000,
    });
    expect(await of('2026-12')).toMatchObject({ idleGpuSeconds: 2 * 4 * 3600, idleMicroUsd: 7_200_000 });
    // Deleted, it still counts in the months it was idle.
    expect((await admin('DELETE /v1/admin/reservations/{id}', 'idle-split')).status).toBe(204);
    expect(await of('2026-11')).toMatchObject({ idleGpuSeconds: 4 * 3600 });
  });
});
