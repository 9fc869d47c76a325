import {
  EC2Client,
  EC2ServiceException,
  RunInstancesCommand,
  TerminateInstancesCommand,
} from '@aws-sdk/client-ec2';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { Ec2Compute } from '../../../shared/adapters/ec2-compute';
import { CapacityUnavailableError } from '../../../shared/ports/compute';

// Fault injection: moto never runs out of capacity, so EC2's capacity errors
// are injected here with aws-sdk-client-mock. Everything else runs on moto.
const ec2 = mockClient(EC2Client);
const compute = new Ec2Compute(new EC2Client({ region: 'us-east-1' }), {
  launchTemplateId: 'lt-1',
  subnetIds: ['subnet-a', 'subnet-b'],
});
const request = {
  tenantId: 't',
  leaseId: 'lease_x',
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

beforeEach(() => ec2.reset());

describe('Ec2Compute', () => {
  it('moves to the next subnet on a capacity error, classified by code', async () => {
    ec2
      .on(RunInstancesCommand, { SubnetId: 'subnet-a' })
      .rejects(ec2Error('InsufficientInstanceCapacity'))
      .on(RunInstancesCommand, { SubnetId: 'subnet-b' })
      .resolves({
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
    const launched = await compute.launch(request);
    expect(launched).toEqual([
      expect.objectContaining({ instanceId: 'i-1', mode: 'spot', zone: 'us-east-1b' }),
    ]);
    const calls = ec2.commandCalls(RunInstancesCommand);
    expect(calls.map((c) => c.args[0].input.SubnetId)).toEqual(['subnet-a', 'subnet-b']);
    expect(calls[0]?.args[0].input.InstanceMarketOptions?.MarketType).toBe('spot');
  });

  it('reports no capacity once every subnet refused', async () => {
    ec2.on(RunInstancesCommand).rejects(ec2Error('SpotMaxPriceTooLow'));
    await expect(compute.launch(request)).rejects.toBeInstanceOf(CapacityUnavailableError);
    await expect(compute.launch(request)).rejects.toMatchObject({ code: 'SpotMaxPriceTooLow', mode: 'spot' });
  });

  it('passes any other error through untouched, without trying further subnets', async () => {
    ec2.on(RunInstancesCommand).rejects(ec2Error('UnauthorizedOperation'));
    await expect(compute.launch(request)).rejects.toMatchObject({ name: 'UnauthorizedOperation' });
    expect(ec2.commandCalls(RunInstancesCommand)).toHaveLength(1);
  });

  it('treats terminating an instance that is already gone as done', async () => {
    ec2.on(TerminateInstancesCommand).rejects(ec2Error('InvalidInstanceID.NotFound'));
    await expect(compute.terminate(['i-gone'])).resolves.toBeUndefined();
    ec2.on(TerminateInstancesCommand).rejects(ec2Error('RequestLimitExceeded'));
    await expect(compute.terminate(['i-1'])).rejects.toMatchObject({ name: 'RequestLimitExceeded' });
  });
});
