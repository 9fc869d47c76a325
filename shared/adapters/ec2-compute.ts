import {
  CreateLaunchTemplateVersionCommand,
  CreateTagsCommand,
  DeleteTagsCommand,
  DescribeInstancesCommand,
  DescribeLaunchTemplatesCommand,
  DescribeLaunchTemplateVersionsCommand,
  DescribeSpotPriceHistoryCommand,
  DescribeSubnetsCommand,
  type EC2Client,
  type Filter,
  type Instance,
  type RequestLaunchTemplateData,
  RunInstancesCommand,
  type RunInstancesCommandInput,
  StartInstancesCommand,
  StopInstancesCommand,
  TerminateInstancesCommand,
} from '@aws-sdk/client-ec2';
import type { RentalMode } from '../domain/lease';
import { type MicroUsd, usdToMicro } from '../domain/money';
import { spotPriceKey } from '../domain/pools';
import {
  prePullTagValue,
  WARM_IMAGE_TAG,
  WARM_POOL_TAG,
  WARM_PREPULL_TAG,
  WARM_READY_TAG,
} from '../domain/warm-pools/pool';
import { warmMachineUserData } from '../domain/warm-pools/user-data';
import {
  AccountQuotaExceededError,
  CapacityUnavailableError,
  COMMITMENT_TAG,
  type Compute,
  type ComputeInstance,
  ComputeThrottledError,
  FLEET_TAG,
  type FleetRegion,
  IMDS_HOP_LIMIT,
  type InstanceRef,
  LaunchNotAuthorizedError,
  type LaunchRequest,
  LEASE_TAG,
  MANAGED_TAG,
  TENANT_TAG,
  type WarmLaunchRequest,
} from '../ports/compute';

const MODE_TAG = 'gpurent:mode';
const LIVE_STATES = ['pending', 'running', 'stopping', 'stopped'];
const TERMINATION_STATES = new Set(['shutting-down', 'terminated']);
/** `User initiated (2026-11-30 21:04:05 GMT)`: AWS writes GMT, moto UTC. */
const TRANSITION_TIME = /\((\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}) (?:GMT|UTC)\)/;

/** The instant in an EC2 `StateTransitionReason`, when it carries one. */
export function transitionTimeMs(reason: string | undefined): number | undefined {
  const match = reason === undefined ? null : TRANSITION_TIME.exec(reason);
  return match ? Date.parse(`${match[1]}T${match[2]}Z`) : undefined;
}

/** EC2 error codes that mean "no capacity for this offering right now" (Karpenter's list, trimmed). */
const CAPACITY_ERROR_CODES = new Set([
  'InsufficientInstanceCapacity',
  'InsufficientCapacity',
  'InsufficientHostCapacity',
  'InsufficientReservedInstanceCapacity',
  'InsufficientCapacityOnHost',
  'ReservationCapacityExceeded',
  'SpotMaxPriceTooLow',
  'UnfulfillableCapacity',
  'Unsupported',
]);
/** EC2 error codes that mean "the account's quota is used up" (vCPUs on demand, spot requests). */
const ACCOUNT_QUOTA_CODES = new Set(['VcpuLimitExceeded', 'MaxSpotInstanceCountExceeded']);
/** EC2 error codes that mean "slow down": retried by the client's policy (EC2_RETRY in shared/lambda/clients.ts), never here. */
const THROTTLING_CODES = new Set([
  'RequestLimitExceeded',
  'Throttling',
  'ThrottlingException',
  'RequestThrottled',
]);
/**
 * EC2 error codes that mean "this account or role may not launch here": a grant
 * that names the wrong resources, a region not opted in, an account blocked.
 */
const AUTHORIZATION_CODES = new Set([
  'UnauthorizedOperation',
  'AuthFailure',
  'Blocked',
  'OptInRequired',
  'PendingVerification',
  'AccessDenied',
]);
const NOT_FOUND_CODES = new Set(['InvalidInstanceID.NotFound', 'InvalidInstanceID.Malformed']);

function errorCode(error: unknown): string | undefined {
  return error instanceof Error ? error.name : undefined;
}

export interface Ec2ComputeOptions {
  /** The GPU regions, home region first. */
  readonly regions: readonly string[];
  /** Value of the `gpurent:fleet` tag on the fleet's subnets and launch templates. */
  readonly fleetName: string;
  /** One client per region, created once. */
  readonly clientFor: (region: string) => EC2Client;
}

interface RegionFleet {
  readonly launchTemplateId: string | undefined;
  /** One subnet per zone, in the order EC2 lists them. */
  readonly subnetByZone: ReadonlyMap<string, string>;
}

/**
 * EC2 in every GPU region. Each region's subnets and launch template are found
 * by the fleet tag (as Karpenter selects subnets by tag), once per container,
 * so the control plane in the home region needs no cross-region references.
 */
export class Ec2Compute implements Compute {
  private readonly fleets = new Map<string, Promise<RegionFleet>>();
  constructor(private readonly options: Ec2ComputeOptions) {}

  async fleet(): Promise<FleetRegion[]> {
    return Promise.all(
      this.options.regions.map(async (region) => ({
        region,
        zones: [...(await this.regionFleet(region)).subnetByZone.keys()],
      })),
    );
  }

  async launch(request: LaunchRequest): Promise<ComputeInstance[]> {
    const instances = await this.run(request, {
      tags: [
        { Key: MANAGED_TAG, Value: 'true' },
        { Key: LEASE_TAG, Value: request.leaseId },
        { Key: TENANT_TAG, Value: request.tenantId },
        { Key: MODE_TAG, Value: request.mode },
        ...(request.commitmentId ? [{ Key: COMMITMENT_TAG, Value: request.commitmentId }] : []),
      ],
      market:
        request.mode === 'spot'
          ? {
              MarketType: 'spot',
              SpotOptions: { SpotInstanceType: 'one-time', InstanceInterruptionBehavior: 'terminate' },
            }
          : undefined,
      capacity: capacityReservation(request),
    });
    // The response may omit the tags just set (the emulator does): the request says whose they are.
    return instances.map((instance) => ({
      ...instance,
      leaseId: request.leaseId,
      tenantId: request.tenantId,
      commitmentId: request.commitmentId,
    }));
  }

  async launchWarm(request: WarmLaunchRequest): Promise<ComputeInstance[]> {
    const instances = await this.run(
      { ...request, mode: 'on-demand' },
      {
        tags: [
          { Key: MANAGED_TAG, Value: 'true' },
          { Key: WARM_POOL_TAG, Value: request.pool },
          { Key: WARM_IMAGE_TAG, Value: request.imageVersion },
          { Key: MODE_TAG, Value: 'on-demand' },
          ...(request.prePull.length > 0
            ? [{ Key: WARM_PREPULL_TAG, Value: prePullTagValue(request.prePull) }]
            : []),
        ],
        userData: warmMachineUserData(request),
      },
    );
    return instances.map((instance) => ({ ...instance, warmPool: request.pool }));
  }

  async stop(instances: readonly InstanceRef[]): Promise<void> {
    await this.eachRegion(instances, (ec2, instanceIds) =>
      ec2.send(new StopInstancesCommand({ InstanceIds: instanceIds })),
    );
  }

  async startForLease(
    instance: InstanceRef & { readonly instanceType: string; readonly zone: string },
    owner: { readonly tenantId: string; readonly leaseId: string },
  ): Promise<void> {
    const ids = [instance.instanceId];
    await this.call(instance.region, (ec2) =>
      ec2.send(
        new CreateTagsCommand({
          Resources: ids,
          Tags: [
            { Key: LEASE_TAG, Value: owner.leaseId },
            { Key: TENANT_TAG, Value: owner.tenantId },
            { Key: MODE_TAG, Value: 'on-demand' },
          ],
        }),
      ),
    );
    await this.call(instance.region, (ec2) =>
      ec2.send(new DeleteTagsCommand({ Resources: ids, Tags: [{ Key: WARM_POOL_TAG }] })),
    );
    try {
      await this.call(instance.region, (ec2) => ec2.send(new StartInstancesCommand({ InstanceIds: ids })));
    } catch (error) {
      const code = errorCode(error);
      if (code === undefined || !CAPACITY_ERROR_CODES.has(code)) throw error;
      throw new CapacityUnavailableError('on-demand', instance.instanceType, code, instance.zone);
    }
  }

  /** RunInstances from the region's fleet launch template into the zone's subnet; capacity errors typed. */
  private async run(
    request: Pick<
      LaunchRequest,
      'region' | 'zone' | 'instanceType' | 'mode' | 'count' | 'clientToken' | 'launchTemplateVersion'
    >,
    options: {
      readonly tags: { Key: string; Value: string }[];
      readonly market?: RunInstancesCommandInput['InstanceMarketOptions'];
      readonly capacity?: RunInstancesCommandInput['CapacityReservationSpecification'];
      /** Replaces the launch template's user data. */
      readonly userData?: string;
    },
  ): Promise<ComputeInstance[]> {
    const fleet = await this.regionFleet(request.region);
    const subnetId = fleet.subnetByZone.get(request.zone);
    if (!fleet.launchTemplateId || !subnetId) {
      throw new CapacityUnavailableError(request.mode, request.instanceType, 'NoFleetInZone', request.zone);
    }
    try {
      const result = await this.call(request.region, (ec2) =>
        ec2.send(
          new RunInstancesCommand({
            LaunchTemplate: {
              LaunchTemplateId: fleet.launchTemplateId,
              Version: request.launchTemplateVersion ?? '$Default',
            },
            InstanceType: request.instanceType as never,
            SubnetId: subnetId,
            MinCount: request.count,
            MaxCount: request.count,
            ClientToken: request.clientToken,
            InstanceMarketOptions: options.market,
            CapacityReservationSpecification: options.capacity,
            UserData: options.userData && Buffer.from(options.userData, 'utf8').toString('base64'),
            TagSpecifications: [{ ResourceType: 'instance', Tags: options.tags }],
          }),
        ),
      );
      return (result.Instances ?? []).map((instance) => toComputeInstance(request.region, instance));
    } catch (error) {
      const code = errorCode(error);
      if (code !== undefined && AUTHORIZATION_CODES.has(code)) {
        // EC2 encodes why in the message (a decodable authorization message); it names no tenant data.
        throw new LaunchNotAuthorizedError(request.region, code, (error as Error).message);
      }
      if (code !== undefined && ACCOUNT_QUOTA_CODES.has(code)) {
        throw new AccountQuotaExceededError(request.mode, request.instanceType, code, request.zone);
      }
      if (code === undefined || !CAPACITY_ERROR_CODES.has(code)) throw error;
      throw new CapacityUnavailableError(request.mode, request.instanceType, code, request.zone);
    }
  }

  instancesOfLease(leaseId: string): Promise<ComputeInstance[]> {
    return this.describeLiveEverywhere([{ Name: `tag:${LEASE_TAG}`, Values: [leaseId] }]);
  }

  async findInstance(instanceId: string, regions: readonly string[]): Promise<ComputeInstance | undefined> {
    for (const region of regions) {
      try {
        const page = await this.call(region, (ec2) =>
          ec2.send(new DescribeInstancesCommand({ InstanceIds: [instanceId] })),
        );
        const found = page.Reservations?.[0]?.Instances?.[0];
        if (found) return toComputeInstance(region, found);
      } catch (error) {
        const code = errorCode(error);
        if (code === undefined || !NOT_FOUND_CODES.has(code)) throw error;
      }
    }
    return undefined;
  }

  managedInstances(): Promise<ComputeInstance[]> {
    return this.describeLiveEverywhere([{ Name: `tag:${MANAGED_TAG}`, Values: ['true'] }]);
  }

  async terminate(instances: readonly InstanceRef[]): Promise<void> {
    await this.eachRegion(instances, (ec2, instanceIds) =>
      ec2.send(new TerminateInstancesCommand({ InstanceIds: instanceIds })),
    );
  }

  /** One call per region for the instances there; an instance already gone is the state wanted. */
  private async eachRegion(
    instances: readonly InstanceRef[],
    send: (ec2: EC2Client, instanceIds: string[]) => Promise<unknown>,
  ): Promise<void> {
    const byRegion = new Map<string, string[]>();
    for (const { instanceId, region } of instances) {
      byRegion.set(region, [...(byRegion.get(region) ?? []), instanceId]);
    }
    await Promise.all(
      [...byRegion].map(async ([region, instanceIds]) => {
        try {
          await this.call(region, (ec2) => send(ec2, instanceIds));
        } catch (error) {
          const code = errorCode(error);
          if (code === undefined || !NOT_FOUND_CODES.has(code)) throw error;
        }
      }),
    );
  }

  async createLaunchTemplateVersion(region: string, amiId: string, description: string): Promise<string> {
    const { launchTemplateId } = await this.regionFleet(region);
    if (!launchTemplateId)
      throw new Error(`No gpurent fleet launch template in ${region} (tag ${FLEET_TAG})`);
    const base = await this.call(region, (ec2) =>
      ec2.send(
        new DescribeLaunchTemplateVersionsCommand({
          LaunchTemplateId: launchTemplateId,
          Versions: ['$Default'],
        }),
      ),
    );
    const data = base.LaunchTemplateVersions?.[0]?.LaunchTemplateData ?? {};
    const created = await this.call(region, (ec2) =>
      ec2.send(
        new CreateLaunchTemplateVersionCommand({
          LaunchTemplateId: launchTemplateId,
          VersionDescription: description.slice(0, 255),
          LaunchTemplateData: {
            ...(data as RequestLaunchTemplateData),
            ImageId: amiId,
            MetadataOptions: {
              ...data.MetadataOptions,
              HttpTokens: 'required',
              HttpEndpoint: 'enabled',
              HttpPutResponseHopLimit: IMDS_HOP_LIMIT,
            },
            BlockDeviceMappings: (data.BlockDeviceMappings ?? []).map((mapping) => ({
              ...mapping,
              Ebs: mapping.Ebs ? { ...mapping.Ebs, Encrypted: true } : undefined,
            })) as RequestLaunchTemplateData['BlockDeviceMappings'],
          },
        }),
      ),
    );
    return String(created.LaunchTemplateVersion?.VersionNumber ?? '');
  }

  async spotPrices(region: string, instanceTypes: readonly string[]): Promise<Map<string, MicroUsd>> {
    const prices = new Map<string, MicroUsd>();
    if (instanceTypes.length === 0) return prices;
    let nextToken: string | undefined;
    do {
      // With StartTime = now EC2 returns the price in force in each zone.
      const token = nextToken;
      const page = await this.call(region, (ec2) =>
        ec2.send(
          new DescribeSpotPriceHistoryCommand({
            InstanceTypes: [...instanceTypes] as never[],
            ProductDescriptions: ['Linux/UNIX', 'Linux/UNIX (Amazon VPC)'],
            StartTime: new Date(),
            NextToken: token,
          }),
        ),
      );
      for (const entry of page.SpotPriceHistory ?? []) {
        if (!entry.AvailabilityZone || !entry.InstanceType || entry.SpotPrice === undefined) continue;
        const key = spotPriceKey(entry.AvailabilityZone, entry.InstanceType);
        if (!prices.has(key)) prices.set(key, usdToMicro(Number(entry.SpotPrice)));
      }
      nextToken = page.NextToken || undefined;
    } while (nextToken);
    return prices;
  }

  private regionFleet(region: string): Promise<RegionFleet> {
    let fleet = this.fleets.get(region);
    if (!fleet) {
      fleet = this.discover(region);
      // A failed lookup is not remembered: the next call asks again.
      fleet.catch(() => this.fleets.delete(region));
      this.fleets.set(region, fleet);
    }
    return fleet;
  }

  private async discover(region: string): Promise<RegionFleet> {
    const byFleet: Filter[] = [{ Name: `tag:${FLEET_TAG}`, Values: [this.options.fleetName] }];
    const [subnets, templates] = await Promise.all([
      this.call(region, (ec2) => ec2.send(new DescribeSubnetsCommand({ Filters: byFleet }))),
      this.call(region, (ec2) => ec2.send(new DescribeLaunchTemplatesCommand({ Filters: byFleet }))),
    ]);
    const subnetByZone = new Map<string, string>();
    for (const subnet of subnets.Subnets ?? []) {
      if (subnet.AvailabilityZone && subnet.SubnetId && !subnetByZone.has(subnet.AvailabilityZone)) {
        subnetByZone.set(subnet.AvailabilityZone, subnet.SubnetId);
      }
    }
    return { launchTemplateId: templates.LaunchTemplates?.[0]?.LaunchTemplateId, subnetByZone };
  }

  private async describeLiveEverywhere(filters: Filter[]): Promise<ComputeInstance[]> {
    const perRegion = await Promise.all(
      this.options.regions.map((region) => this.describeLive(region, filters)),
    );
    return perRegion.flat();
  }

  private async describeLive(region: string, filters: Filter[]): Promise<ComputeInstance[]> {
    const instances: ComputeInstance[] = [];
    let nextToken: string | undefined;
    do {
      const token = nextToken;
      const page = await this.call(region, (ec2) =>
        ec2.send(
          new DescribeInstancesCommand({
            Filters: [...filters, { Name: 'instance-state-name', Values: LIVE_STATES }],
            NextToken: token,
          }),
        ),
      );
      for (const reservation of page.Reservations ?? []) {
        instances.push(
          ...(reservation.Instances ?? []).map((instance) => toComputeInstance(region, instance)),
        );
      }
      nextToken = page.NextToken;
    } while (nextToken);
    return instances;
  }

  /**
   * Calls EC2 in `region`. Retries are the client's alone (one policy per call);
   * throttling that outlasts them becomes a typed error saying how many attempts it made.
   */
  private async call<Output>(region: string, send: (ec2: EC2Client) => Promise<Output>): Promise<Output> {
    try {
      return await send(this.options.clientFor(region));
    } catch (error) {
      const code = errorCode(error);
      if (code === undefined || !THROTTLING_CODES.has(code)) throw error;
      const attempts = (error as { $metadata?: { attempts?: number } }).$metadata?.attempts ?? 1;
      throw new ComputeThrottledError(code, attempts);
    }
  }
}

function capacityReservation(request: LaunchRequest) {
  if (request.capacityReservationId) {
    return { CapacityReservationTarget: { CapacityReservationId: request.capacityReservationId } };
  }
  return request.mode === 'reserved' ? { CapacityReservationPreference: 'open' as const } : undefined;
}

function toComputeInstance(region: string, instance: Instance): ComputeInstance {
  const tag = (key: string) => instance.Tags?.find((t) => t.Key === key)?.Value;
  const taggedMode = tag(MODE_TAG) as RentalMode | undefined;
  return {
    instanceId: instance.InstanceId ?? '',
    region,
    instanceType: String(instance.InstanceType),
    zone: instance.Placement?.AvailabilityZone ?? '',
    launchedAtMs: instance.LaunchTime?.getTime() ?? 0,
    mode: instance.InstanceLifecycle === 'spot' ? 'spot' : (taggedMode ?? 'on-demand'),
    leaseId: tag(LEASE_TAG),
    tenantId: tag(TENANT_TAG),
    commitmentId: tag(COMMITMENT_TAG),
    state: instance.State?.Name,
    warmPool: tag(WARM_POOL_TAG),
    warmReadyImage: tag(WARM_READY_TAG),
    endedAtMs: TERMINATION_STATES.has(instance.State?.Name ?? '')
      ? transitionTimeMs(instance.StateTransitionReason)
      : undefined,
  };
}
