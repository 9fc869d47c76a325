import { ClientError } from './client-error';
import { formatUsd } from './domain/money';

/** Errors the use cases raise; each carries the HTTP status and code the API answers with. */
export class LeaseNotFoundError extends ClientError {
  constructor(readonly leaseId: string) {
    super(404, 'LEASE_NOT_FOUND', `No lease ${leaseId} for this tenant`);
    this.name = 'LeaseNotFoundError';
  }
}

/** A `block-new-leases` budget in the lease's scope has reached its limit this month. */
export class BudgetExceededError extends ClientError {
  constructor(
    readonly budgetName: string,
    readonly spendMicroUsd: number,
    readonly limitMicroUsd: number,
  ) {
    super(
      402,
      'BUDGET_EXCEEDED',
      `Budget ${budgetName} has reached its monthly limit ($${formatUsd(spendMicroUsd)} spent of $${formatUsd(limitMicroUsd)}) and blocks new leases in its scope; raise its limit, change its action, or wait for next month`,
      'budget',
      // The detail names the budget, so a client can link to it.
      [{ path: 'budget', message: budgetName }],
    );
    this.name = 'BudgetExceededError';
  }
}

export class BudgetNotFoundError extends ClientError {
  constructor(readonly budgetName: string) {
    super(404, 'BUDGET_NOT_FOUND', `No budget ${budgetName} for this tenant`);
    this.name = 'BudgetNotFoundError';
  }
}

export class UnsupportedInstanceTypeError extends ClientError {
  constructor(
    readonly instanceType: string,
    readonly supported: readonly string[],
    readonly gpus = 1,
  ) {
    super(
      400,
      'UNSUPPORTED_INSTANCE_TYPE',
      `instanceType ${instanceType} is not a GPU type priced in the allowed regions that holds ${gpus} GPU${gpus === 1 ? '' : 's'} as whole instances; use one of: ${supported.join(', ')}`,
      'instanceType',
    );
    this.name = 'UnsupportedInstanceTypeError';
  }
}

/** A lease named a region gpurent has no fleet in. */
export class UnknownRegionError extends ClientError {
  constructor(
    override readonly field: 'regions' | 'dataRegion',
    readonly region: string,
    readonly known: readonly string[],
  ) {
    super(
      400,
      'UNKNOWN_REGION',
      field === 'regions'
        ? `${region} is not a GPU region of this deployment; use some of: ${known.join(', ')}`
        : `dataRegion ${region} is not an AWS region gpurent knows prices for`,
      field,
    );
    this.name = 'UnknownRegionError';
  }
}

/** A fraction of a GPU that no type of the GPU model asked (or of the allowed regions) is sold as. */
export class NoSuchGpuFractionError extends ClientError {
  constructor(
    readonly gpus: number,
    readonly gpuModel: string | undefined,
    readonly offered: readonly string[],
  ) {
    super(
      400,
      'GPU_FRACTION_UNAVAILABLE',
      `no instance type${gpuModel === undefined ? '' : ` of ${gpuModel}`} in the allowed regions is sold as ${gpus} of a GPU; fractions on offer: ${offered.join(', ') || 'none'}`,
      'gpus',
    );
    this.name = 'NoSuchGpuFractionError';
  }
}

export class UnknownGpuModelError extends ClientError {
  constructor(
    readonly gpuModel: string,
    readonly known: readonly string[],
  ) {
    super(
      400,
      'UNKNOWN_GPU_MODEL',
      `gpuModel ${gpuModel} is not offered in the allowed regions; use one of: ${known.join(', ')}`,
      'gpuModel',
    );
    this.name = 'UnknownGpuModelError';
  }
}

/** maxHourlyPrice is below what every allowed pool costs for the GPUs asked. */
export class PriceBelowEveryPoolError extends ClientError {
  constructor(
    readonly maxHourlyMicroUsd: number,
    readonly cheapestMicroUsd: number | undefined,
  ) {
    super(
      400,
      'MAX_PRICE_BELOW_EVERY_POOL',
      cheapestMicroUsd === undefined
        ? 'no allowed pool can take these GPUs at any price'
        : `maxHourlyPrice $${(maxHourlyMicroUsd / 1e6).toFixed(6)} is below every allowed pool; the cheapest costs $${(cheapestMicroUsd / 1e6).toFixed(6)}/h for these GPUs`,
      'maxHourlyPrice',
    );
    this.name = 'PriceBelowEveryPoolError';
  }
}

/** A lease pinned an image version that is not registered, or that has no AMI in its regions. */
export class UnknownImageError extends ClientError {
  constructor(
    readonly image: string,
    readonly problem: string,
  ) {
    super(400, 'UNKNOWN_IMAGE', `image ${image}: ${problem}`, 'image');
    this.name = 'UnknownImageError';
  }
}

/** The lease asks for a rental mode it can never get (inference on spot, reserved with no commitment). */
export class ModeNotAvailableError extends ClientError {
  constructor(
    readonly mode: string,
    reason: string,
  ) {
    super(400, 'MODE_NOT_AVAILABLE', `mode ${mode}: ${reason}`, 'mode');
    this.name = 'ModeNotAvailableError';
  }
}

/** Logs asked of a lease that runs no task. */
export class LeaseHasNoTaskError extends ClientError {
  constructor(readonly leaseId: string) {
    super(409, 'LEASE_HAS_NO_TASK', `Lease ${leaseId} runs no task, so it has no task output`);
    this.name = 'LeaseHasNoTaskError';
  }
}

/** A task attempt that the lease's task has not made. */
export class UnknownTaskAttemptError extends ClientError {
  constructor(
    readonly leaseId: string,
    readonly attempt: number,
  ) {
    super(404, 'TASK_ATTEMPT_NOT_FOUND', `The task of lease ${leaseId} has no attempt ${attempt}`, 'attempt');
    this.name = 'UnknownTaskAttemptError';
  }
}

/** A session needs live instances: only a RUNNING lease has them for sure. */
export class LeaseNotRunningError extends ClientError {
  constructor(
    readonly leaseId: string,
    readonly leaseStatus: string,
  ) {
    super(
      409,
      'LEASE_NOT_RUNNING',
      `Lease ${leaseId} is ${leaseStatus}; a session can be opened only while it is RUNNING`,
    );
    this.name = 'LeaseNotRunningError';
  }
}
