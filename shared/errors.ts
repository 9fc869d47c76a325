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
  ) {
    super(
      `instanceType ${instanceType} is not a single-GPU type priced in this region; use one of: ${supported.join(', ')}`,
    );
    this.name = 'UnsupportedInstanceTypeError';
  }
}
