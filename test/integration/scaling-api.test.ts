import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiEvent } from '../../local/runtime/api-event';
import { publishGpuSamples } from '../../local/runtime/gpu-telemetry-publisher';
import { lambdaContext } from '../../local/runtime/lambda-context';
import { awsProbe } from '../support/aws';
import { storesOf, useFreshResources } from '../support/function-env';
import { launchedInstance, storedLease } from '../support/leases';

const MINUTE = 60_000;

let env: Record<string, string>;
let handler: typeof import('../../functions/api/handler').handler;
let stores: Awaited<ReturnType<typeof storesOf>>;

beforeAll(async () => {
  env = await useFreshResources();
  ({ handler } = await import('../../functions/api/handler'));
  stores = await storesOf(env);
});

interface Request {
  readonly method: 'GET' | 'PUT' | 'DELETE';
  readonly route: string;
  readonly params: Record<string, string>;
  readonly body?: unknown;
  readonly query?: Record<string, string>;
  readonly tenant?: string;
}

async function send(request: Request) {
  const path = Object.entries(request.params).reduce((p, [k, v]) => p.replace(`{${k}}`, v), request.route);
  const result = (await handler(
    apiEvent({
      routeKey: `${request.method} ${request.route}`,
      path,
      headers: { 'content-type': 'application/json' },
      query: request.query,
      pathParameters: request.params,
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      claims: { sub: 'user-1', 'custom:tenant': request.tenant ?? 'acme-scale' },
    }),
    lambdaContext('api', 29_000),
  )) as APIGatewayProxyStructuredResultV2;
  return { status: result.statusCode, body: JSON.parse(result.body ?? '{}') };
}

const GROUPS = '/v1/scaling-groups/{name}';
const putGroup = (name: string, body: unknown, tenant?: string) =>
  send({ method: 'PUT', route: GROUPS, params: { name }, body, tenant });
const getGroup = (name: string, tenant?: string) =>
  send({ method: 'GET', route: GROUPS, params: { name }, tenant });

const groupItems = async () =>
  (await awsProbe().scan(env.SCALING_GROUPS_TABLE_NAME ?? '')).filter((item) =>
    String(item.sk).startsWith('GROUP#'),
  );

describe('scaling groups API', () => {
  it('creates a group with the default rules, shows it, replaces it and deletes it', async () => {
    const created = await putGroup('web', { instanceType: 'g5.xlarge', min: 1, max: 4, desired: 2 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'web',
      status: 'ACTIVE',
      desired: 2,
      size: 0,
      members: [],
      decisions: [],
      spec: {
        workload: 'inference',
        scaleOut: {
          conditions: [{ metric: 'gpuUtilization', comparison: '>', threshold: 80 }],
          cooldownSeconds: 300,
        },
        scaleIn: {
          conditions: [{ metric: 'gpuUtilization', comparison: '<', threshold: 30 }],
          cooldownSeconds: 600,
        },
      },
    });

    const replaced = await putGroup('web', { instanceType: 'g5.xlarge', min: 1, max: 3 });
    expect(replaced.status).toBe(200);
    expect(replaced.body.desired).toBe(2);
    expect((await getGroup('web')).body.spec.max).toBe(3);
    expect((await getGroup('web', 'someone-else')).status).toBe(404);

    const deleted = await send({ method: 'DELETE', route: GROUPS, params: { name: 'web' } });
    expect(deleted).toEqual({ status: 202, body: { name: 'web', status: 'DELETED', released: [] } });
    expect((await getGroup('web')).body.error.code).toBe('SCALING_GROUP_NOT_FOUND');
  });

  it("lists the tenant's groups by name, without their decisions or another tenant's groups", async () => {
    const tenant = 'acme-list';
    expect((await putGroup('zeta', { instanceType: 'g5.xlarge', min: 1, max: 2 }, tenant)).status).toBe(201);
    expect(
      (await putGroup('alpha', { instanceType: 'g5.xlarge', min: 1, max: 4, desired: 3 }, tenant)).status,
    ).toBe(201);
    await putGroup('alpha', { instanceType: 'g5.xlarge', min: 1, max: 4 }, 'other-list');
    const { DynamoDbScalingGroupRepository } = await import(
      '../../shared/adapters/dynamodb-scaling-group-repository'
    );
    // A decision item shares the group's key prefix: the list must not take it for a group.
    await new DynamoDbScalingGroupRepository(
      stores.documents,
      env.SCALING_GROUPS_TABLE_NAME ?? '',
    ).recordDecision(tenant, 'alpha', {
      atMs: Date.now(),
      action: 'scale-out',
      from: 1,
      to: 3,
      reason: 'test',
      observations: [],
      launched: [],
      released: [],
    });

    const listed = await send({ method: 'GET', route: '/v1/scaling-groups', params: {}, tenant });
    expect(listed.status).toBe(200);
    expect(listed.body.groups).toEqual([
      expect.objectContaining({
        name: 'alpha',
        status: 'ACTIVE',
        instanceType: 'g5.xlarge',
        min: 1,
        max: 4,
        desired: 3,
        members: 0,
      }),
      expect.objectContaining({ name: 'zeta', min: 1, max: 2, desired: 1, members: 0 }),
    ]);
    const none = await send({
      method: 'GET',
      route: '/v1/scaling-groups',
      params: {},
      tenant: 'nobody-list',
    });
    expect(none).toEqual({ status: 200, body: { groups: [] } });
  });

  it('shows a member waiting for admission and the decision that says so, with reason, place and estimate', async () => {
    const tenant = 'acme-waiting';
    expect((await putGroup('web', { instanceType: 'g5.xlarge', min: 1, max: 2 }, tenant)).status).toBe(201);
    const startAtMs = Date.parse('2031-01-01T10:00:00.000Z');
    const queue = {
      reason: 'quota',
      position: 2,
      estimatedStartAtMs: startAtMs,
      estimateBasis: 'default',
    } as const;
    const lease = await storedLease(stores.leases, { tenantId: tenant, status: 'QUEUED', queue });
    const { DynamoDbScalingGroupRepository } = await import(
      '../../shared/adapters/dynamodb-scaling-group-repository'
    );
    const groups = new DynamoDbScalingGroupRepository(stores.documents, env.SCALING_GROUPS_TABLE_NAME ?? '');
    await groups.addMember(tenant, 'web', {
      leaseId: lease.leaseId,
      mode: 'on-demand',
      createdAtMs: Date.now(),
    });
    const waiting = [{ leaseId: lease.leaseId, ...queue }];
    await groups.recordDecision(tenant, 'web', {
      atMs: Date.now(),
      action: 'none',
      from: 1,
      to: 1,
      reason: `no rule met; 1 GPU waiting in the admission queue: ${lease.leaseId} (quota, position 2)`,
      waiting,
      observations: [],
      launched: [],
      released: [],
    });

    const { status, body } = await getGroup('web', tenant);

    expect(status).toBe(200);
    expect(body.size).toBe(1);
    const shown = {
      reason: 'quota',
      position: 2,
      estimatedStartAt: '2031-01-01T10:00:00.000Z',
      estimateBasis: 'default',
    };
    expect(body.members).toEqual([
      expect.objectContaining({ leaseId: lease.leaseId, status: 'QUEUED', queue: shown }),
    ]);
    expect(body.decisions[0].waiting).toEqual([{ leaseId: lease.leaseId, ...shown }]);
  });

  it.each([
    ['min above max', { min: 5, max: 4 }, 'min'],
    ['desired outside min and max', { min: 1, max: 4, desired: 7 }, 'desired'],
    [
      'an unknown metric',
      { scaleOut: { conditions: [{ metric: 'cpu', comparison: '>', threshold: 1 }] } },
      'scaleOut.conditions.0.metric',
    ],
    [
      'an unknown statistic',
      {
        scaleOut: {
          conditions: [{ metric: 'gpuPower', statistic: 'Median', comparison: '>', threshold: 1 }],
        },
      },
      'scaleOut.conditions.0.statistic',
    ],
    [
      'a threshold out of range',
      { scaleOut: { conditions: [{ metric: 'gpuUtilization', comparison: '>', threshold: 120 }] } },
      'scaleOut.conditions.0.threshold',
    ],
    [
      'a negative cooldown',
      {
        scaleIn: {
          conditions: [{ metric: 'gpuUtilization', comparison: '<', threshold: 20 }],
          cooldownSeconds: -1,
        },
      },
      'scaleIn.cooldownSeconds',
    ],
    [
      'a cooldown above a day',
      {
        scaleOut: {
          conditions: [{ metric: 'gpuUtilization', comparison: '>', threshold: 80 }],
          cooldownSeconds: 86_401,
        },
      },
      'scaleOut.cooldownSeconds',
    ],
    [
      'more than 10 rules',
      {
        scaleOut: {
          conditions: Array(11).fill({ metric: 'gpuUtilization', comparison: '>', threshold: 80 }),
        },
      },
      'scaleOut.conditions',
    ],
    ['an unknown field', { autoscale: true }, ''],
  ])('refuses %s with 400 VALIDATION_FAILED and stores nothing', async (_what, body, path) => {
    const before = (await groupItems()).length;
    const response = await putGroup('bad', { instanceType: 'g5.xlarge', min: 1, max: 4, ...body });

    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_FAILED');
    expect(response.body.error.details.map((d: { path: string }) => d.path)).toContain(path || 'body');
    expect(await groupItems()).toHaveLength(before);
  });

  it('refuses a bad name and an unpriced instance type', async () => {
    expect((await putGroup('Web_1', { instanceType: 'g5.xlarge', min: 1, max: 2 })).body.error.code).toBe(
      'INVALID_SCALING_GROUP_NAME',
    );
    const unpriced = await putGroup('big', { instanceType: 'p5.48xlarge', min: 1, max: 2 });
    expect(unpriced.status).toBe(400);
    expect(unpriced.body.error.code).toBe('UNSUPPORTED_INSTANCE_TYPE');
  });
});

describe('GET /v1/leases/{id}/metrics', () => {
  it('returns each GPU series with avg / p95 / max from the metrics put in CloudWatch, and a hot GPU', async () => {
    const now = Math.floor(Date.now() / MINUTE) * MINUTE;
    const launchedAtMs = now - 30 * MINUTE;
    const lease = await storedLease(stores.leases, { tenantId: 'acme-scale', status: 'RUNNING' });
    const instanceId = `i-${Date.now().toString(16).padStart(17, '0')}`;
    await stores.leases.recordInstances([launchedInstance(lease, instanceId, launchedAtMs)]);
    // Twenty minutes: utilization 10, 20, …, 100, 10, …; the GPU heats up to 90 °C at the end.
    await publishGpuSamples(
      new CloudWatchClient({}),
      Array.from({ length: 20 }, (_, i) => ({
        tenantId: lease.tenantId,
        leaseId: lease.leaseId,
        instanceId,
        gpuIndex: 0,
        atMs: now - (20 - i) * MINUTE + 10_000,
        utilizationPercent: ((i % 10) + 1) * 10,
        memoryUsedMiB: 6_000,
        memoryTotalMiB: 24_000,
        temperatureC: i === 19 ? 90 : 60,
        powerW: 200,
      })),
    );

    const response = await send({
      method: 'GET',
      route: '/v1/leases/{id}/metrics',
      params: { id: lease.leaseId },
      query: {
        from: new Date(now - 20 * MINUTE).toISOString(),
        to: new Date(now).toISOString(),
        period: '60',
      },
    });

    expect(response.status).toBe(200);
    const [gpu] = response.body.instances[0].gpus;
    expect(response.body.instances[0].instanceId).toBe(instanceId);
    expect(gpu.utilization).toMatchObject({ unit: '%', avg: 55, p95: 100, max: 100 });
    expect(gpu.utilization.datapoints).toHaveLength(20);
    expect(gpu.memoryUsed).toMatchObject({ avg: 25, p95: 25, max: 25 });
    expect(gpu.temperature).toMatchObject({ unit: '°C', max: 90, p95: 60 });
    expect(gpu.power).toMatchObject({ avg: 200 });
    expect(gpu.health).toEqual({ status: 'hot', reason: '90°C is above the 85°C limit' });
  });

  it('refuses an unknown period and a range of too many periods', async () => {
    const lease = await storedLease(stores.leases, { tenantId: 'acme-scale' });
    const query = (q: Record<string, string>) =>
      send({ method: 'GET', route: '/v1/leases/{id}/metrics', params: { id: lease.leaseId }, query: q });

    expect((await query({ period: '120' })).body.error).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ path: 'period', message: 'must be 60, 300 or 3600 (seconds)' }],
    });
    expect(
      (await query({ from: '2026-01-01T00:00:00Z', to: '2026-01-03T00:00:00Z' })).body.error.details[0]
        .message,
    ).toContain('more than 1440 periods');
  });
});
