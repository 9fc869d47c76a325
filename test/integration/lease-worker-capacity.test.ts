import {
  DescribeInstancesCommand,
  DescribeLaunchTemplatesCommand,
  DescribeSpotPriceHistoryCommand,
  DescribeSubnetsCommand,
  EC2Client,
  type EC2ClientResolvedConfig,
  EC2ServiceException,
  RunInstancesCommand,
  type RunInstancesCommandInput,
  type ServiceInputTypes,
  type ServiceOutputTypes,
  TerminateInstancesCommand,
} from '@aws-sdk/client-ec2';
import { type AwsStub, mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { lambdaContext } from '../../local/runtime/lambda-context';
import type { Lease } from '../../shared/domain/lease';
import type { LeaseRepository } from '../../shared/ports/lease-repository';
import { storesOf, useFreshResources } from '../support/function-env';
import { commandRecord, storedLease } from '../support/leases';

// Fault injection: moto always has capacity, so EC2 is replaced here by
// aws-sdk-client-mock to refuse launches pool by pool. DynamoDB, SQS and
// EventBridge stay real. Two regions, two zones each, as the local fleet.
let ec2: AwsStub<ServiceInputTypes, ServiceOutputTypes, EC2ClientResolvedConfig>;

let handler: typeof import('../../functions/lease-worker/handler').handler;
let leases: LeaseRepository;

const ZONES: Record<string, string[]> = {
  'us-east-1': ['us-east-1a', 'us-east-1b'],
  'us-west-2': ['us-west-2a', 'us-west-2b'],
};
/** Launches as EC2 saw them: region, zone (from the subnet), type, market. */
let launches: { region: string; zone: string; type: string; spot: boolean }[];
/** Which launches to refuse, and with which code. */
let refuse: (launch: { region: string; zone: string; type: string; spot: boolean }) => string | undefined;

beforeAll(async () => {
  const env = await useFreshResources();
  ({ handler } = await import('../../functions/lease-worker/handler'));
  ({ leases } = await storesOf(env));
  // Only after the emulator resources exist: the mock replaces every EC2 client.
  ec2 = mockClient(EC2Client);
});

afterAll(() => ec2.restore());

const error = (code: string) =>
  new EC2ServiceException({ name: code, $fault: 'server', $metadata: {}, message: 'injected' });

beforeEach(() => {
  launches = [];
  refuse = () => undefined;
  ec2.reset();
  ec2.on(DescribeSubnetsCommand).callsFake(async (_input, getClient) => {
    const region = await getClient().config.region();
    return {
      Subnets: (ZONES[region] ?? []).map((zone) => ({ SubnetId: `subnet-${zone}`, AvailabilityZone: zone })),
    };
  });
  ec2.on(DescribeLaunchTemplatesCommand).resolves({ LaunchTemplates: [{ LaunchTemplateId: 'lt-1' }] });
  ec2.on(DescribeInstancesCommand).resolves({ Reservations: [] });
  ec2.on(DescribeSpotPriceHistoryCommand).resolves({ SpotPriceHistory: [] });
  ec2.on(TerminateInstancesCommand).resolves({});
  ec2.on(RunInstancesCommand).callsFake(async (input: RunInstancesCommandInput, getClient) => {
    const region = await getClient().config.region();
    const launch = {
      region,
      zone: String(input.SubnetId).replace('subnet-', ''),
      type: String(input.InstanceType),
      spot: input.InstanceMarketOptions?.MarketType === 'spot',
    };
    launches.push(launch);
    const code = refuse(launch);
    if (code) throw error(code);
    return {
      Instances: Array.from({ length: input.MinCount ?? 1 }, (_, i) => ({
        InstanceId: `i-${launches.length}-${i}`,
        InstanceType: input.InstanceType,
        InstanceLifecycle: launch.spot ? 'spot' : undefined,
        LaunchTime: new Date(),
        Placement: { AvailabilityZone: launch.zone },
      })),
    };
  });
});

async function provision(overrides: Partial<Lease>): Promise<Lease> {
  const lease = await storedLease(leases, { tenantId: 'tenant-cap', ...overrides });
  const result = await handler(
    { Records: [commandRecord('provision', lease)] },
    lambdaContext('lease-worker', 60_000),
  );
  expect(result.batchItemFailures).toEqual([]);
  return lease;
}

describe('when pools refuse capacity', () => {
  it('tries the next pool in rank, across regions, and says which refused', async () => {
    refuse = (launch) => (launch.region === 'us-east-1' ? 'InsufficientInstanceCapacity' : undefined);
    const lease = await provision({ workload: 'batch', instanceType: 'g6.xlarge' });

    expect(launches.map((l) => `${l.zone}/${l.spot ? 'spot' : 'od'}`)).toEqual([
      'us-east-1a/spot',
      'us-east-1b/spot',
      'us-west-2a/spot',
    ]);
    const stored = await leases.get(lease.tenantId, lease.leaseId);
    expect(stored?.status).toBe('RUNNING');
    expect(stored?.instances.map((i) => [i.region, i.zone, i.mode])).toEqual([
      ['us-west-2', 'us-west-2a', 'spot'],
    ]);
    expect(stored?.placement).toMatchObject({ region: 'us-west-2', zone: 'us-west-2a', mode: 'spot' });
    expect(stored?.placement?.reason).toContain(
      'refused first: spot/us-east-1/us-east-1a/g6.xlarge (InsufficientInstanceCapacity), spot/us-east-1/us-east-1b/g6.xlarge (InsufficientInstanceCapacity)',
    );
  });

  it('remembers refused offerings for the next lease in the container (unavailable-offerings cache)', async () => {
    refuse = (launch) => (launch.zone === 'us-east-1a' ? 'InsufficientInstanceCapacity' : undefined);
    await provision({ workload: 'training', instanceType: 'g4dn.xlarge' });
    expect(launches.map((l) => l.zone)).toEqual(['us-east-1a', 'us-east-1b']);
    launches = [];
    await provision({ workload: 'training', instanceType: 'g4dn.xlarge' });
    expect(launches.map((l) => l.zone)).toEqual(['us-east-1b']);
  });

  it('falls back from spot to on-demand only once every spot pool refused', async () => {
    refuse = (launch) => (launch.spot ? 'SpotMaxPriceTooLow' : undefined);
    const lease = await provision({ workload: 'batch', instanceType: 'g5.2xlarge' });
    expect(launches.filter((l) => l.spot)).toHaveLength(4);
    expect(launches.at(-1)).toMatchObject({ spot: false, zone: 'us-east-1a' });
    const stored = await leases.get(lease.tenantId, lease.leaseId);
    expect(stored?.instances.map((i) => [i.instanceId, i.mode, i.priceMicroUsdPerHour])).toEqual([
      [expect.any(String), 'on-demand', 1_212_000],
    ]);
  });

  // #19: it used to FAIL here; now it waits in the admission queue for room, launching nothing.
  it('queues the lease for capacity when every allowed pool refused, leaving nothing running', async () => {
    refuse = () => 'InsufficientInstanceCapacity';
    const lease = await provision({
      workload: 'training',
      instanceType: 'g5.4xlarge',
      regions: ['us-west-2'],
    });
    const stored = await leases.get(lease.tenantId, lease.leaseId);
    expect(stored?.status).toBe('QUEUED');
    expect(stored?.queue).toMatchObject({ reason: 'capacity', position: 1, estimateBasis: 'after-refusal' });
    expect(launches.map((l) => l.zone)).toEqual(['us-west-2a', 'us-west-2b']);
    expect(stored?.failureReason).toBeUndefined();
    expect(stored?.instances).toEqual([]);
  });

  // moto never answers VcpuLimitExceeded: the account's EC2 vCPU quota is injected through the mock.
  it('queues the lease with reason account-quota when EC2 refuses for the account vCPU quota', async () => {
    refuse = () => 'VcpuLimitExceeded';
    const lease = await provision({
      workload: 'training',
      instanceType: 'g5.2xlarge',
      // Pools of its own: the container still backs off the ones the test above saw refused.
      regions: ['us-east-1'],
    });
    const stored = await leases.get(lease.tenantId, lease.leaseId);
    expect(stored?.status).toBe('QUEUED');
    expect(stored?.queue?.reason).toBe('account-quota');
    expect(stored?.instances).toEqual([]);
  });

  // The SDK's adaptive retry (one policy, counted in test/unit/adapters/ec2-retry-policy.test.ts) sits
  // below this mock: what reaches the worker is a launch still throttled after every attempt.
  it('leaves a launch still throttled after the SDK retries to SQS, launching nothing twice', async () => {
    refuse = () => 'RequestLimitExceeded';
    const lease = await storedLease(leases, { tenantId: 'tenant-cap', instanceType: 'g6.2xlarge' });
    const event = { Records: [commandRecord('provision', lease)] };
    await expect(handler(event, lambdaContext('lease-worker', 60_000))).rejects.toThrow(/All records failed/);
    expect(launches).toHaveLength(1);
    const stored = await leases.get(lease.tenantId, lease.leaseId);
    expect(stored?.status).toBe('PENDING');
    expect(stored?.instances).toEqual([]);
  });

  // #41: a remote region whose grant named no AMI refused every launch; the command retried into the DLQ.
  it('fails the lease at once, naming region and code, when EC2 refuses the launch for authorization', async () => {
    refuse = (launch) => (launch.region === 'us-west-2' ? 'UnauthorizedOperation' : undefined);
    const lease = await provision({
      workload: 'training',
      instanceType: 'g5.8xlarge',
      regions: ['us-west-2'],
    });
    expect(launches).toHaveLength(1);
    const stored = await leases.get(lease.tenantId, lease.leaseId);
    expect(stored?.status).toBe('FAILED');
    expect(stored?.failureReason).toMatch(
      /^EC2 refused to launch in us-west-2 for authorization \(UnauthorizedOperation\): .*launch permissions need fixing$/,
    );
    expect(stored?.instances).toEqual([]);
  });

  it('leaves the message to be retried on any other EC2 error instead of failing the lease', async () => {
    refuse = () => 'InternalError';
    const lease = await storedLease(leases, { tenantId: 'tenant-cap', instanceType: 'g6.4xlarge' });
    const event = { Records: [commandRecord('provision', lease)] };
    // Every record of the batch failed: Powertools fails the invocation, so SQS redelivers it all.
    await expect(handler(event, lambdaContext('lease-worker', 60_000))).rejects.toThrow(/All records failed/);
    expect((await leases.get(lease.tenantId, lease.leaseId))?.status).toBe('PENDING');
  });
});
