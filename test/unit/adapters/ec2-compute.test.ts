import {
  CreateTagsCommand,
  DeleteTagsCommand,
  DescribeLaunchTemplatesCommand,
  DescribeSubnetsCommand,
  EC2Client,
  EC2ServiceException,
  RunInstancesCommand,
  StartInstancesCommand,
  TerminateInstancesCommand,
} from '@aws-sdk/client-ec2';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { Ec2Compute } from '../../../shared/adapters/ec2-compute';
import {
  AccountQuotaExceededError,
  CapacityUnavailableError,
  ComputeThrottledError,
  LaunchNotAuthorizedError,
} from '../../../shared/ports/compute';

// Fault injection: moto never runs out of capacity and never throttles, so
// EC2's capacity and throttling errors are injected here with
// aws-sdk-client-mock. Everything else runs on moto in the integration tests.
const ec2 = mockClient(EC2Client);
// Unit files share one module registry: the real EC2Client comes back for the files after this one.
afterAll(() => ec2.restore());

function compute() {
  const clients = new Map<string, EC2Client>();
  return new Ec2Compute({
    regions: ['us-east-1', 'us-west-2'],
    fleetName: 'fleet-x',
    clientFor: (region) => {
      const client = clients.get(region) ?? new EC2Client({ region });
      clients.set(region, client);
      return client;
    },
  });
}

const request = {
  tenantId: 't',
  leaseId: 'lease_x',
  region: 'us-east-1',
  zone: 'us-east-1b',
  instanceType: 'g5.xlarge',
  mode: 'spot',
  count: 1,
  clientToken: 'tok',
} as const;

function ec2Error(code: string) {
  return new EC2ServiceException({
    name: code,
    $fault: 'client',
    $metadata: {},
    message: `injected ${code}`,
  });
}

beforeEach(() => {
  ec2.reset();
  ec2.on(DescribeSubnetsCommand).resolves({
    Subnets: [
      { SubnetId: 'subnet-a', AvailabilityZone: 'us-east-1a' },
      { SubnetId: 'subnet-b', AvailabilityZone: 'us-east-1b' },
    ],
  });
  ec2.on(DescribeLaunchTemplatesCommand).resolves({ LaunchTemplates: [{ LaunchTemplateId: 'lt-1' }] });
});

describe('Ec2Compute', () => {
  it('finds each region’s subnets and launch template by the fleet tag and launches into the zone asked', async () => {
    ec2.on(RunInstancesCommand).resolves({
      Instances: [
        {
          InstanceId: 'i-1',
          InstanceType: 'g5.xlarge',
          InstanceLifecycle: 'spot',
          LaunchTime: new Date(0),
          Placement: { AvailabilityZone: 'us-east-1b' },
        },
      ],
    });
    const subject = compute();
    expect(await subject.fleet()).toEqual([
      { region: 'us-east-1', zones: ['us-east-1a', 'us-east-1b'] },
      { region: 'us-west-2', zones: ['us-east-1a', 'us-east-1b'] },
    ]);
    expect(await subject.launch(request)).toEqual([
      expect.objectContaining({ instanceId: 'i-1', region: 'us-east-1', mode: 'spot', zone: 'us-east-1b' }),
    ]);
    const [call] = ec2.commandCalls(RunInstancesCommand);
    expect(call?.args[0].input).toMatchObject({
      SubnetId: 'subnet-b',
      LaunchTemplate: { LaunchTemplateId: 'lt-1' },
      InstanceMarketOptions: { MarketType: 'spot' },
    });
    expect(ec2.commandCalls(DescribeSubnetsCommand)[0]?.args[0].input.Filters).toEqual([
      { Name: 'tag:gpurent:fleet', Values: ['fleet-x'] },
    ]);
  });

  // No emulator has EC2 capacity reservations: the targeting is checked on the request itself.
  it('targets the commitment’s capacity reservation and tags the commitment', async () => {
    ec2
      .on(RunInstancesCommand)
      .resolves({ Instances: [{ InstanceId: 'i-r', Placement: { AvailabilityZone: 'us-east-1b' } }] });
    const [instance] = await compute().launch({
      ...request,
      mode: 'reserved',
      commitmentId: 'c1',
      capacityReservationId: 'cr-0123456789abcdef0',
    });
    expect(instance?.commitmentId).toBe('c1');
    const input = ec2.commandCalls(RunInstancesCommand)[0]?.args[0].input;
    expect(input?.CapacityReservationSpecification).toEqual({
      CapacityReservationTarget: { CapacityReservationId: 'cr-0123456789abcdef0' },
    });
    expect(input?.TagSpecifications?.[0]?.Tags).toContainEqual({ Key: 'gpurent:commitment', Value: 'c1' });
    expect(input?.InstanceMarketOptions).toBeUndefined();
  });

  it('classifies capacity errors by code, naming the zone, and passes others through', async () => {
    ec2.on(RunInstancesCommand).rejects(ec2Error('InsufficientInstanceCapacity'));
    const refused = compute().launch(request);
    await expect(refused).rejects.toBeInstanceOf(CapacityUnavailableError);
    await expect(compute().launch(request)).rejects.toMatchObject({
      code: 'InsufficientInstanceCapacity',
      zone: 'us-east-1b',
      mode: 'spot',
    });
    ec2.on(RunInstancesCommand).rejects(ec2Error('InternalError'));
    await expect(compute().launch(request)).rejects.toMatchObject({ name: 'InternalError' });
  });

  // #41: not a capacity miss, and not retried: the lease fails at once, naming the region and the code.
  it.each(['UnauthorizedOperation', 'AuthFailure', 'Blocked', 'OptInRequired'])(
    'types a launch refused for authorization (%s) as LaunchNotAuthorizedError',
    async (code) => {
      ec2.on(RunInstancesCommand).rejects(ec2Error(code));
      const refused = compute().launch(request);
      await expect(refused).rejects.toBeInstanceOf(LaunchNotAuthorizedError);
      await expect(refused).rejects.toMatchObject({ region: 'us-east-1', code });
    },
  );

  it('classifies a warm machine EC2 has no capacity to start as a capacity miss, and passes others through', async () => {
    const machine = {
      instanceId: 'i-warm',
      region: 'us-east-1',
      zone: 'us-east-1a',
      instanceType: 'g5.xlarge',
    };
    const owner = { tenantId: 't', leaseId: 'lease_x' };
    ec2.on(CreateTagsCommand).resolves({});
    ec2.on(DeleteTagsCommand).resolves({});
    ec2.on(StartInstancesCommand).rejects(ec2Error('InsufficientInstanceCapacity'));
    await expect(compute().startForLease(machine, owner)).rejects.toMatchObject({
      name: 'CapacityUnavailableError',
      code: 'InsufficientInstanceCapacity',
      instanceType: 'g5.xlarge',
      zone: 'us-east-1a',
      mode: 'on-demand',
    });
    ec2.on(StartInstancesCommand).rejects(ec2Error('IncorrectInstanceState'));
    await expect(compute().startForLease(machine, owner)).rejects.toMatchObject({
      name: 'IncorrectInstanceState',
    });
  });

  it.each(['VcpuLimitExceeded', 'MaxSpotInstanceCountExceeded'])(
    'classifies %s as the account quota, still a capacity miss to the placement loop',
    async (code) => {
      ec2.on(RunInstancesCommand).rejects(ec2Error(code));
      const refused = compute().launch(request);
      await expect(refused).rejects.toBeInstanceOf(AccountQuotaExceededError);
      await expect(compute().launch(request)).rejects.toBeInstanceOf(CapacityUnavailableError);
      await expect(compute().launch(request)).rejects.toMatchObject({ code, shortfall: 'account-quota' });
    },
  );

  it('turns throttling that outlasted the client retries into a typed error, without retrying it again', async () => {
    ec2.on(RunInstancesCommand).rejects(ec2Error('RequestLimitExceeded'));
    await expect(compute().launch(request)).rejects.toBeInstanceOf(ComputeThrottledError);
    expect(ec2.commandCalls(RunInstancesCommand)).toHaveLength(1);
  });

  it('refuses a zone the fleet has no subnet in as a capacity miss, without calling EC2', async () => {
    await expect(compute().launch({ ...request, zone: 'us-east-1f' })).rejects.toMatchObject({
      code: 'NoFleetInZone',
    });
    expect(ec2.commandCalls(RunInstancesCommand)).toHaveLength(0);
  });

  it('terminates per region and treats an instance already gone as done', async () => {
    ec2.on(TerminateInstancesCommand).resolves({});
    await compute().terminate([
      { instanceId: 'i-1', region: 'us-east-1' },
      { instanceId: 'i-2', region: 'us-west-2' },
      { instanceId: 'i-3', region: 'us-east-1' },
    ]);
    expect(ec2.commandCalls(TerminateInstancesCommand).map((c) => c.args[0].input.InstanceIds)).toEqual([
      ['i-1', 'i-3'],
      ['i-2'],
    ]);
    ec2.on(TerminateInstancesCommand).rejects(ec2Error('InvalidInstanceID.NotFound'));
    await expect(
      compute().terminate([{ instanceId: 'i-gone', region: 'us-east-1' }]),
    ).resolves.toBeUndefined();
    ec2.on(TerminateInstancesCommand).rejects(ec2Error('UnauthorizedOperation'));
    await expect(compute().terminate([{ instanceId: 'i-1', region: 'us-east-1' }])).rejects.toMatchObject({
      name: 'UnauthorizedOperation',
    });
  });
});
