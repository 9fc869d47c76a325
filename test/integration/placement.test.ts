import { randomUUID } from 'node:crypto';
import { DescribeInstancesCommand, EC2Client } from '@aws-sdk/client-ec2';
import type { APIGatewayProxyStructuredResultV2, SQSRecord } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiEvent } from '../../local/runtime/api-event';
import { lambdaContext } from '../../local/runtime/lambda-context';
import type { Lease } from '../../shared/domain/lease';
import { LEASE_TAG } from '../../shared/ports/compute';
import type { LeaseRepository } from '../../shared/ports/lease-repository';
import { awsProbe } from '../support/aws';
import { storesOf, useFreshResources } from '../support/function-env';
import { commandRecord, storedLease } from '../support/leases';

let env: Record<string, string>;
let api: typeof import('../../functions/api/handler').handler;
let worker: typeof import('../../functions/lease-worker/handler').handler;
let leases: LeaseRepository;

beforeAll(async () => {
  env = await useFreshResources();
  ({ handler: api } = await import('../../functions/api/handler'));
  ({ handler: worker } = await import('../../functions/lease-worker/handler'));
  ({ leases } = await storesOf(env));
});

const deliver = (...records: SQSRecord[]) =>
  worker({ Records: records }, lambdaContext('lease-worker', 120_000));

/** moto serves every region from one endpoint; the region picks its backend. */
async function liveInRegion(region: string, leaseId: string) {
  const result = await new EC2Client({ region }).send(
    new DescribeInstancesCommand({
      Filters: [
        { Name: `tag:${LEASE_TAG}`, Values: [leaseId] },
        { Name: 'instance-state-name', Values: ['pending', 'running'] },
      ],
    }),
  );
  return (result.Reservations ?? []).flatMap((r) => r.Instances ?? []);
}

async function call(
  routeKey: string,
  options: { body?: unknown; query?: Record<string, string>; admin?: boolean },
) {
  const [, path = ''] = routeKey.split(' ');
  const result = (await api(
    apiEvent({
      routeKey,
      path,
      headers: { 'content-type': 'application/json', 'idempotency-key': `k-${randomUUID()}` },
      query: options.query,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      claims: {
        sub: 'user-1',
        'custom:tenant': 'tenant-place',
        ...(options.admin ? { 'cognito:groups': '[admin]' } : {}),
      },
    }),
    lambdaContext('api', 29_000),
  )) as APIGatewayProxyStructuredResultV2;
  return { status: result.statusCode, body: JSON.parse(result.body ?? '{}') };
}

describe('placement on the EC2 emulator, two regions', () => {
  it('launches in the one region a lease allows, records the region and terminates there', async () => {
    const lease = await storedLease(leases, { tenantId: 'tenant-place', regions: ['us-west-2'] });
    await deliver(commandRecord('provision', lease));
    expect(await liveInRegion('us-east-1', lease.leaseId)).toHaveLength(0);
    const [instance] = await liveInRegion('us-west-2', lease.leaseId);
    expect(instance?.Placement?.AvailabilityZone).toMatch(/^us-west-2[a-z]$/);
    const stored = await leases.get(lease.tenantId, lease.leaseId);
    expect(stored?.instances[0]).toMatchObject({ region: 'us-west-2', instanceId: instance?.InstanceId });
    expect(stored?.placement).toMatchObject({ region: 'us-west-2', instanceType: 'g5.xlarge', instances: 1 });

    await leases.transition(lease.tenantId, lease.leaseId, ['RUNNING'], 'RELEASING', Date.now());
    await deliver(commandRecord('release', lease));
    expect(await liveInRegion('us-west-2', lease.leaseId)).toHaveLength(0);
    expect((await leases.get(lease.tenantId, lease.leaseId))?.status).toBe('RELEASED');
  });

  it('goes to the data region when prices are equal elsewhere', async () => {
    const lease = await storedLease(leases, {
      tenantId: 'tenant-place',
      dataRegion: 'us-west-2',
      dataGb: 50,
    });
    await deliver(commandRecord('provision', lease));
    expect(await liveInRegion('us-west-2', lease.leaseId)).toHaveLength(1);
  });

  it('puts 8 V100s of a spot batch lease on one 8-GPU instance, priced from the catalog spot ratio', async () => {
    const lease: Lease = await storedLease(leases, {
      tenantId: 'tenant-place',
      workload: 'batch',
      gpus: 8,
      gpuModel: 'V100',
      instanceType: 'p3.2xlarge',
    });
    await deliver(commandRecord('provision', lease));
    const live = await awsProbe().instancesTagged(LEASE_TAG, lease.leaseId);
    expect(live.map((i) => [i.InstanceType, i.InstanceLifecycle])).toEqual([['p3.16xlarge', 'spot']]);
    const stored = await leases.get(lease.tenantId, lease.leaseId);
    // $24.48/h on-demand × the local spot ratio drawn from the V100 traces.
    const ratio = Number(env.SPOT_CATALOG_RATIO);
    expect(stored?.instances[0]?.priceMicroUsdPerHour).toBe(Math.round(24_480_000 * ratio));
    expect(stored?.placement?.reason).toMatch(/^batch is interruptible; spot p3\.16xlarge us-east-1a at/);
  });
});

describe('the API', () => {
  it.each([
    ['an unknown region', { regions: ['mars-north-1'] }, 'VALIDATION_FAILED'],
    ['a region without a fleet', { regions: ['eu-west-1'] }, 'UNKNOWN_REGION'],
    ['an unknown data region', { dataRegion: 'xx-nowhere-9' }, 'UNKNOWN_REGION'],
    ['an unknown GPU model', { gpuModel: 'Voodoo5' }, 'UNKNOWN_GPU_MODEL'],
    ['a GPU model that cannot hold 3 GPUs whole', { gpuModel: 'A100', gpus: 3 }, 'UNKNOWN_GPU_MODEL'],
    ['both instanceType and gpuModel', { gpuModel: 'A10G', instanceType: 'g5.xlarge' }, 'VALIDATION_FAILED'],
    ['a price ceiling below every pool', { maxHourlyPrice: 0.05 }, 'MAX_PRICE_BELOW_EVERY_POOL'],
    ['a negative data size', { dataGb: -1 }, 'VALIDATION_FAILED'],
  ])('refuses %s with 400 and a code, writing nothing', async (_case, extra, code) => {
    const before = (await leases.list('tenant-place', 100)).leases.length;
    const response = await call('POST /v1/leases', { body: { workload: 'training', gpus: 1, ...extra } });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe(code);
    expect((await leases.list('tenant-place', 100)).leases.length).toBe(before);
  });

  it('accepts a GPU model with placement fields and stores them', async () => {
    const response = await call('POST /v1/leases', {
      body: {
        workload: 'training',
        gpus: 4,
        gpuModel: 'L4',
        regions: ['us-east-1'],
        maxHourlyPrice: 10,
        dataGb: 5,
      },
    });
    expect(response.status).toBe(202);
    const stored = await leases.get('tenant-place', response.body.leaseId);
    expect(stored).toMatchObject({
      gpuModel: 'L4',
      instanceType: 'g6.xlarge',
      regions: ['us-east-1'],
      maxHourlyMicroUsd: 10_000_000,
      dataGb: 5,
    });
  });

  it('lists pools for admins only, priced, marked and ranked, saying how spot is priced locally', async () => {
    expect((await call('GET /v1/pools', { query: { gpuModel: 'A10G' } })).status).toBe(403);
    const response = await call('GET /v1/pools', {
      admin: true,
      query: { gpuModel: 'A10G', gpus: '4', dataRegion: 'us-west-2' },
    });
    expect(response.status).toBe(200);
    expect(response.body.spotPriceNote).toMatch(
      /^local: spot = catalog on-demand × 0\.\d+, the median ratio of the real V100 spot traces/,
    );
    const pools = response.body.pools as {
      mode: string;
      rank: number | null;
      region: string;
      instanceType: string;
      priceSource: string;
      mark: string;
    }[];
    const firstOnDemand = pools.find((p) => p.mode === 'on-demand' && p.rank === 1);
    expect(firstOnDemand).toMatchObject({
      region: 'us-west-2',
      instanceType: 'g5.xlarge',
      mark: 'available',
    });
    expect(pools.filter((p) => p.mode === 'spot').every((p) => p.priceSource === 'catalog-spot-ratio')).toBe(
      true,
    );
    // Only types that hold 4 GPUs whole: never the 8-GPU g5.48xlarge.
    expect(pools.some((p) => p.instanceType === 'g5.48xlarge')).toBe(false);
    expect(
      pools.find((p) => p.instanceType === 'g5.12xlarge' && p.mode === 'on-demand')?.rank,
    ).toBeGreaterThan(1);
    expect(
      (await call('GET /v1/pools', { admin: true, query: { regions: 'eu-west-1' } })).body.error.code,
    ).toBe('UNKNOWN_REGION');
  });
});
