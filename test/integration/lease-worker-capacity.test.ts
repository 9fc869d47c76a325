import {
  DescribeInstancesCommand,
  DescribeSpotPriceHistoryCommand,
  EC2Client,
  type EC2ClientResolvedConfig,
  EC2ServiceException,
  RunInstancesCommand,
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
// aws-sdk-client-mock to refuse launches. DynamoDB, SQS and EventBridge stay real.
let ec2: AwsStub<ServiceInputTypes, ServiceOutputTypes, EC2ClientResolvedConfig>;

let handler: typeof import('../../functions/lease-worker/handler').handler;
let leases: LeaseRepository;

beforeAll(async () => {
  const env = await useFreshResources();
  ({ handler } = await import('../../functions/lease-worker/handler'));
  ({ leases } = await storesOf(env));
  // Only after the emulator resources exist: the mock replaces every EC2 client.
  ec2 = mockClient(EC2Client);
});

afterAll(() => ec2.restore());

beforeEach(() => {
  ec2.reset();
  ec2.on(DescribeInstancesCommand).resolves({ Reservations: [] });
  ec2.on(DescribeSpotPriceHistoryCommand).resolves({ SpotPriceHistory: [] });
  ec2.on(TerminateInstancesCommand).resolves({});
});

const noCapacity = () =>
  new EC2ServiceException({
    name: 'InsufficientInstanceCapacity',
    $fault: 'server',
    $metadata: {},
    message: 'injected',
  });

async function provision(workload: Lease['workload']): Promise<Lease> {
  const lease = await storedLease(leases, { tenantId: 'tenant-cap', workload });
  const result = await handler(
    { Records: [commandRecord('provision', lease)] },
    lambdaContext('lease-worker', 60_000),
  );
  expect(result.batchItemFailures).toEqual([]);
  return lease;
}

describe('when EC2 has no capacity', () => {
  it('falls back from spot to on-demand for batch work, after trying every subnet', async () => {
    ec2
      .on(RunInstancesCommand, { InstanceMarketOptions: { MarketType: 'spot' } })
      .rejects(noCapacity())
      .on(RunInstancesCommand, { InstanceMarketOptions: undefined })
      .resolves({
        Instances: [
          {
            InstanceId: 'i-ondemand1',
            InstanceType: 'g5.xlarge',
            LaunchTime: new Date(),
            Placement: { AvailabilityZone: 'us-east-1a' },
          },
        ],
      });
    const lease = await provision('batch');

    const launches = ec2.commandCalls(RunInstancesCommand).map((call) => call.args[0].input);
    const spotTries = launches.filter((input) => input.InstanceMarketOptions?.MarketType === 'spot');
    expect(spotTries.length).toBe((process.env.SUBNET_IDS ?? '').split(',').length);
    expect(launches.at(-1)?.InstanceMarketOptions).toBeUndefined();
    const stored = await leases.get(lease.tenantId, lease.leaseId);
    expect(stored?.status).toBe('RUNNING');
    expect(stored?.instances.map((i) => [i.instanceId, i.mode, i.priceMicroUsdPerHour])).toEqual([
      ['i-ondemand1', 'on-demand', 1_006_000],
    ]);
  });

  it('fails the lease with the reason when no mode has capacity, leaving nothing running', async () => {
    ec2.on(RunInstancesCommand).rejects(noCapacity());
    const lease = await provision('training');
    const stored = await leases.get(lease.tenantId, lease.leaseId);
    expect(stored?.status).toBe('FAILED');
    expect(stored?.failureReason).toBe('No on-demand capacity for g5.xlarge (InsufficientInstanceCapacity)');
    expect(stored?.instances).toEqual([]);
  });

  it('leaves the message to be retried on any other EC2 error instead of failing the lease', async () => {
    ec2.on(RunInstancesCommand).rejects(
      new EC2ServiceException({
        name: 'RequestLimitExceeded',
        $fault: 'client',
        $metadata: {},
        message: 'slow down',
      }),
    );
    const lease = await storedLease(leases, { tenantId: 'tenant-cap' });
    const event = { Records: [commandRecord('provision', lease)] };
    // Every record of the batch failed: Powertools fails the invocation, so SQS redelivers it all.
    await expect(handler(event, lambdaContext('lease-worker', 60_000))).rejects.toThrow(/All records failed/);
    expect((await leases.get(lease.tenantId, lease.leaseId))?.status).toBe('PENDING');
  });
});
