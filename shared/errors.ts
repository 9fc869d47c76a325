import { formatUsd } from './domain/money';

/** Errors the use cases raise; the API maps each to an HTTP status and a code. */
export class LeaseNotFoundError extends Error {
  constructor(readonly leaseId: string) {
    super(`No lease ${leaseId} for this tenant`);
    this.name = 'LeaseNotFoundError';
  }
}

/** A `block-new-leases` budget in the lease's scope has reached its limit this month. */
export class BudgetExceededError extends Error {
  constructor(
    readonly budgetName: string,
    readonly spendMicroUsd: number,
    readonly limitMicroUsd: number,
  ) {
    super(
      `Budget ${budgetName} has reached its monthly limit ($${formatUsd(spendMicroUsd)} spent of $${formatUsd(limitMicroUsd)}) and blocks new leases in its scope; raise its limit, change its action, or wait for next month`,
    );
    this.name = 'BudgetExceededError';
  }
}

export class BudgetNotFoundError extends Error {
  constructor(readonly budgetName: string) {
    super(`No budget ${budgetName} for this tenant`);
    this.name = 'BudgetNotFoundError';
  }
}

export class UnsupportedInstanceTypeError extends Error {
  constructor(
    readonly instanceType: string,
    readonly supported: readonly string[],
    readonly gpus = 1,
  ) {
    super(
      `instanceType ${instanceType} is not a GPU type priced in the allowed regions that holds ${gpus} GPU${gpus === 1 ? '' : 's'} as whole instances; use one of: ${supported.join(', ')}`,
    );
    this.name = 'UnsupportedInstanceTypeError';
  }
}

/** A lease named a region gpurent has no fleet in. */
export class UnknownRegionError extends Error {
  constructor(
    readonly field: 'regions' | 'dataRegion',
    readonly region: string,
    readonly known: readonly string[],
  ) {
    super(
      field === 'regions'
        ? `${region} is not a GPU region of this deployment; use some of: ${known.join(', ')}`
        : `dataRegion ${region} is not an AWS region gpurent knows prices for`,
    );
    this.name = 'UnknownRegionError';
  }
}

export class UnknownGpuModelError extends Error {
  constructor(
    readonly gpuModel: string,
    readonly known: readonly string[],
  ) {
    super(`gpuModel ${gpuModel} is not offered in the allowed regions; use one of: ${known.join(', ')}`);
    this.name = 'UnknownGpuModelError';
  }
}

/** maxHourlyPrice is below what every allowed pool costs for the GPUs asked. */
export class PriceBelowEveryPoolError extends Error {
  constructor(
    readonly maxHourlyMicroUsd: number,
    readonly cheapestMicroUsd: number | undefined,
  ) {
    super(
      cheapestMicroUsd === undefined
        ? 'no allowed pool can take these GPUs at any price'
        : `maxHourlyPrice $${(maxHourlyMicroUsd / 1e6).toFixed(6)} is below every allowed pool; the cheapest costs $${(cheapestMicroUsd / 1e6).toFixed(6)}/h for these GPUs`,
    );
    this.name = 'PriceBelowEveryPoolError';
  }
}

/** A lease pinned an image version that is not registered, or that has no AMI in its regions. */
export class UnknownImageError extends Error {
  constructor(
    readonly image: string,
    readonly problem: string,
  ) {
    super(`image ${image}: ${problem}`);
    this.name = 'UnknownImageError';
  }
}
