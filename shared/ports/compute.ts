import type { RentalMode } from '../domain/lease';
import type { MicroUsd } from '../domain/money';

export const MANAGED_TAG = 'gpurent:managed';
export const LEASE_TAG = 'gpurent:lease';
export const TENANT_TAG = 'gpurent:tenant';
export const COMMITMENT_TAG = 'gpurent:commitment';
/** Subnets and launch templates of one gpurent fleet carry this tag with the fleet's name. */
export const FLEET_TAG = 'gpurent:fleet';

/**
 * The root volume every GPU instance launches with (gp3, GiB): the fleet's
 * launch templates (CDK and the local bootstrap) are built with it, and each
 * instance records it at launch for metering its storage.
 */
/**
 * IMDS answers travel one network hop: a machine's own processes get them, a
 * task's container on Docker's bridge network never does, so task code cannot
 * take the instance role's credentials (docs/ARCHITECTURE.md, "Machine credentials").
 */
export const IMDS_HOP_LIMIT = 1;

export const ROOT_VOLUME_GIB = 200;

export interface LaunchRequest {
  readonly tenantId: string;
  readonly leaseId: string;
  readonly region: string;
  readonly zone: string;
  readonly instanceType: string;
  readonly mode: RentalMode;
  readonly count: number;
  /** Idempotency token for EC2 (honoured by AWS; our own check covers emulators that ignore it). */
  readonly clientToken: string;
  /** The reserved commitment the instances run on; tagged, so an adopted instance keeps its rate. */
  readonly commitmentId?: string | undefined;
  /** An EC2 capacity reservation to launch into (reserved commitments that name one). */
  readonly capacityReservationId?: string | undefined;
  /** The launch template version to launch (an image version's); the template's default when absent. */
  readonly launchTemplateVersion?: string | undefined;
}

/** Machines for a warm pool: launched on-demand, tagged to the pool (no lease), initialised, then stopped. */
export interface WarmLaunchRequest {
  readonly pool: string;
  readonly region: string;
  readonly zone: string;
  readonly instanceType: string;
  readonly count: number;
  readonly clientToken: string;
  /** `name:version` the machines are built from, tagged so the filler knows when they are outdated. */
  readonly imageVersion: string;
  readonly launchTemplateVersion: string | undefined;
  /** Container images the instance pulls while it initialises (its user data; also tagged, for people). */
  readonly prePull: readonly string[];
}

/** Where an instance lives: enough to act on it. */
export interface InstanceRef {
  readonly instanceId: string;
  readonly region: string;
}

export interface ComputeInstance extends InstanceRef {
  readonly instanceType: string;
  readonly zone: string;
  readonly launchedAtMs: number;
  readonly mode: RentalMode;
  readonly leaseId?: string | undefined;
  readonly tenantId?: string | undefined;
  readonly commitmentId?: string | undefined;
  /** EC2's state name (`pending`, `running`, `shutting-down`, `terminated`, ...). */
  readonly state?: string | undefined;
  /** When a shutting-down or terminated instance ended, from EC2's state transition reason. */
  readonly endedAtMs?: number | undefined;
  /** The warm pool the machine is kept for (until a lease takes it). */
  readonly warmPool?: string | undefined;
  /** The image version (`name:version`) the instance said it finished initialising from (agent, drivers, pre-pulled images). */
  readonly warmReadyImage?: string | undefined;
}

/** A GPU region the fleet can launch into, with the zones it has subnets in. */
export interface FleetRegion {
  readonly region: string;
  readonly zones: readonly string[];
}

/** Capacity for the offering is not there now; the caller marks it unavailable and tries the next. */
export class CapacityUnavailableError extends Error {
  constructor(
    readonly mode: RentalMode,
    readonly instanceType: string,
    readonly code: string,
    readonly zone?: string,
  ) {
    super(`No ${mode} capacity for ${instanceType}${zone ? ` in ${zone}` : ''} (${code})`);
    this.name = 'CapacityUnavailableError';
  }
}

/**
 * The account's EC2 quota refused the launch (`VcpuLimitExceeded`,
 * `MaxSpotInstanceCountExceeded`): no pool of the same family and market in the
 * region can take it either until something ends. A capacity miss to the
 * placement loop (the next pool may be another family or region); admission
 * queues the lease with reason `account-quota` when every refusal was one.
 */
export class AccountQuotaExceededError extends CapacityUnavailableError {
  readonly shortfall = 'account-quota';

  constructor(mode: RentalMode, instanceType: string, code: string, zone?: string) {
    super(mode, instanceType, code, zone);
    this.name = 'AccountQuotaExceededError';
  }
}

/**
 * EC2 refused the launch for authorization (`UnauthorizedOperation`,
 * `AuthFailure`, `Blocked`, an opt-in region…): a deployment fault, not a
 * pool short of room, and one no retry of the command fixes. The lease FAILS
 * at once naming the region and the code, instead of retrying into the DLQ.
 */
export class LaunchNotAuthorizedError extends Error {
  constructor(
    readonly region: string,
    readonly code: string,
    readonly detail: string,
  ) {
    super(`EC2 refused to launch in ${region} for authorization (${code}): ${detail}`);
    this.name = 'LaunchNotAuthorizedError';
  }
}

/** EC2 kept throttling after the adapter's retries; the command is retried later by its queue. */
export class ComputeThrottledError extends Error {
  constructor(
    readonly code: string,
    readonly attempts: number,
  ) {
    super(`EC2 throttled ${attempts} attempts in a row (${code})`);
    this.name = 'ComputeThrottledError';
  }
}

/** The narrow slice of EC2 the control plane uses, across the fleet's GPU regions. */
export interface Compute {
  /** The GPU regions and zones the fleet can launch into. */
  fleet(): Promise<FleetRegion[]>;
  launch(request: LaunchRequest): Promise<ComputeInstance[]>;
  /** Live (pending or running) instances tagged with the lease, in every GPU region. */
  instancesOfLease(leaseId: string): Promise<ComputeInstance[]>;
  /**
   * One instance in any state, looked for in `regions` in order (forwarded EC2
   * events may name the region they were forwarded to, not the instance's).
   */
  findInstance(instanceId: string, regions: readonly string[]): Promise<ComputeInstance | undefined>;
  /** Live instances carrying the managed tag in every GPU region, for the reconciler. */
  managedInstances(): Promise<ComputeInstance[]>;
  terminate(instances: readonly InstanceRef[]): Promise<void>;
  launchWarm(request: WarmLaunchRequest): Promise<ComputeInstance[]>;
  /** StopInstances: a warm machine kept stopped pays only for its volumes. */
  stop(instances: readonly InstanceRef[]): Promise<void>;
  /**
   * Hands a stopped warm machine to a lease: tagged to the lease and tenant
   * (on-demand) and untagged from its pool first, so a worker dying after the
   * start leaves an instance its lease adopts, then StartInstances. EC2 having
   * no capacity to start it is a `CapacityUnavailableError`.
   */
  startForLease(
    instance: InstanceRef & { readonly instanceType: string; readonly zone: string },
    owner: { readonly tenantId: string; readonly leaseId: string },
  ): Promise<void>;
  /**
   * A new version of the region's fleet launch template that starts `amiId`:
   * the default version's settings, IMDSv2 required, every EBS volume
   * encrypted. Returns its version number.
   */
  createLaunchTemplateVersion(region: string, amiId: string, description: string): Promise<string>;
  /** Latest published spot prices in a region, keyed `zone/instanceType`, per instance-hour. */
  spotPrices(region: string, instanceTypes: readonly string[]): Promise<Map<string, MicroUsd>>;
}
