import type { RentalMode } from '../domain/lease';

export const MANAGED_TAG = 'gpurent:managed';
export const LEASE_TAG = 'gpurent:lease';
export const TENANT_TAG = 'gpurent:tenant';

export interface LaunchRequest {
  readonly tenantId: string;
  readonly leaseId: string;
  readonly instanceType: string;
  readonly mode: RentalMode;
  readonly count: number;
  /** Idempotency token for EC2 (honoured by AWS; our own check covers emulators that ignore it). */
  readonly clientToken: string;
}

export interface ComputeInstance {
  readonly instanceId: string;
  readonly instanceType: string;
  readonly zone: string;
  readonly launchedAtMs: number;
  readonly mode: RentalMode;
  readonly leaseId?: string | undefined;
  readonly tenantId?: string | undefined;
}

/** Capacity for the asked mode is not there now; the caller may fall back. */
export class CapacityUnavailableError extends Error {
  constructor(
    readonly mode: RentalMode,
    readonly instanceType: string,
    readonly code: string,
  ) {
    super(`No ${mode} capacity for ${instanceType} (${code})`);
    this.name = 'CapacityUnavailableError';
  }
}

/** The narrow slice of EC2 the control plane uses. */
export interface Compute {
  launch(request: LaunchRequest): Promise<ComputeInstance[]>;
  /** Live (pending or running) instances tagged with the lease. */
  instancesOfLease(leaseId: string): Promise<ComputeInstance[]>;
  /** Live instances carrying the managed tag, for the reconciler. */
  managedInstances(): Promise<ComputeInstance[]>;
  terminate(instanceIds: readonly string[]): Promise<void>;
  /** Current spot price per hour in micro-dollars for the type in a zone, if EC2 publishes one. */
  spotPriceMicroPerHour(instanceType: string, zone: string): Promise<number | undefined>;
}
