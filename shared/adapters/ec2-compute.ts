import {
  DescribeInstancesCommand,
  DescribeSpotPriceHistoryCommand,
  type EC2Client,
  type Filter,
  type Instance,
  RunInstancesCommand,
  TerminateInstancesCommand,
} from '@aws-sdk/client-ec2';
import type { RentalMode } from '../domain/lease';
import { usdToMicro } from '../domain/money';
import {
  CapacityUnavailableError,
  type Compute,
  type ComputeInstance,
  type LaunchRequest,
  LEASE_TAG,
  MANAGED_TAG,
  TENANT_TAG,
} from '../ports/compute';

const MODE_TAG = 'gpurent:mode';
const LIVE_STATES = ['pending', 'running', 'stopping', 'stopped'];

/** EC2 error codes that mean "no capacity for this offering right now" (Karpenter's list, trimmed). */
const CAPACITY_ERROR_CODES = new Set([
  'InsufficientInstanceCapacity',
  'InsufficientCapacity',
  'InsufficientHostCapacity',
  'InsufficientReservedInstanceCapacity',
  'InsufficientCapacityOnHost',
  'SpotMaxPriceTooLow',
  'MaxSpotInstanceCountExceeded',
  'UnfulfillableCapacity',
  'Unsupported',
]);
const NOT_FOUND_CODES = new Set(['InvalidInstanceID.NotFound', 'InvalidInstanceID.Malformed']);

function errorCode(error: unknown): string | undefined {
  return error instanceof Error ? error.name : undefined;
}

export interface Ec2ComputeOptions {
  readonly launchTemplateId: string;
  /** Subnets tried in order; a capacity error in one moves on to the next. */
  readonly subnetIds: readonly string[];
}

export class Ec2Compute implements Compute {
  constructor(
    private readonly client: EC2Client,
    private readonly options: Ec2ComputeOptions,
  ) {}

  async launch(request: LaunchRequest): Promise<ComputeInstance[]> {
    let lastCode = 'NoSubnet';
    for (const [index, subnetId] of this.options.subnetIds.entries()) {
      try {
        const result = await this.client.send(
          new RunInstancesCommand({
            LaunchTemplate: { LaunchTemplateId: this.options.launchTemplateId, Version: '$Default' },
            InstanceType: request.instanceType as never,
            SubnetId: subnetId,
            MinCount: request.count,
            MaxCount: request.count,
            ClientToken: `${request.clientToken}-${index}`,
            InstanceMarketOptions:
              request.mode === 'spot'
                ? {
                    MarketType: 'spot',
                    SpotOptions: { SpotInstanceType: 'one-time', InstanceInterruptionBehavior: 'terminate' },
                  }
                : undefined,
            CapacityReservationSpecification:
              request.mode === 'reserved' ? { CapacityReservationPreference: 'open' } : undefined,
            TagSpecifications: [
              {
                ResourceType: 'instance',
                Tags: [
                  { Key: MANAGED_TAG, Value: 'true' },
                  { Key: LEASE_TAG, Value: request.leaseId },
                  { Key: TENANT_TAG, Value: request.tenantId },
                  { Key: MODE_TAG, Value: request.mode },
                ],
              },
            ],
          }),
        );
        return (result.Instances ?? []).map(toComputeInstance);
      } catch (error) {
        const code = errorCode(error);
        if (code === undefined || !CAPACITY_ERROR_CODES.has(code)) throw error;
        lastCode = code;
      }
    }
    throw new CapacityUnavailableError(request.mode, request.instanceType, lastCode);
  }

  instancesOfLease(leaseId: string): Promise<ComputeInstance[]> {
    return this.describeLive([{ Name: `tag:${LEASE_TAG}`, Values: [leaseId] }]);
  }

  managedInstances(): Promise<ComputeInstance[]> {
    return this.describeLive([{ Name: `tag:${MANAGED_TAG}`, Values: ['true'] }]);
  }

  async terminate(instanceIds: readonly string[]): Promise<void> {
    if (instanceIds.length === 0) return;
    try {
      await this.client.send(new TerminateInstancesCommand({ InstanceIds: [...instanceIds] }));
    } catch (error) {
      const code = errorCode(error);
      // Already gone is the state we wanted.
      if (code === undefined || !NOT_FOUND_CODES.has(code)) throw error;
    }
  }

  async spotPriceMicroPerHour(instanceType: string, zone: string): Promise<number | undefined> {
    const result = await this.client.send(
      new DescribeSpotPriceHistoryCommand({
        InstanceTypes: [instanceType as never],
        AvailabilityZone: zone,
        ProductDescriptions: ['Linux/UNIX'],
        StartTime: new Date(),
        MaxResults: 1,
      }),
    );
    const price = result.SpotPriceHistory?.[0]?.SpotPrice;
    return price === undefined ? undefined : usdToMicro(Number(price));
  }

  private async describeLive(filters: Filter[]): Promise<ComputeInstance[]> {
    const instances: ComputeInstance[] = [];
    let nextToken: string | undefined;
    do {
      const page = await this.client.send(
        new DescribeInstancesCommand({
          Filters: [...filters, { Name: 'instance-state-name', Values: LIVE_STATES }],
          NextToken: nextToken,
        }),
      );
      for (const reservation of page.Reservations ?? []) {
        instances.push(...(reservation.Instances ?? []).map(toComputeInstance));
      }
      nextToken = page.NextToken;
    } while (nextToken);
    return instances;
  }
}

function toComputeInstance(instance: Instance): ComputeInstance {
  const tag = (key: string) => instance.Tags?.find((t) => t.Key === key)?.Value;
  const taggedMode = tag(MODE_TAG) as RentalMode | undefined;
  return {
    instanceId: instance.InstanceId ?? '',
    instanceType: String(instance.InstanceType),
    zone: instance.Placement?.AvailabilityZone ?? '',
    launchedAtMs: instance.LaunchTime?.getTime() ?? 0,
    mode: instance.InstanceLifecycle === 'spot' ? 'spot' : (taggedMode ?? 'on-demand'),
    leaseId: tag(LEASE_TAG),
    tenantId: tag(TENANT_TAG),
  };
}
