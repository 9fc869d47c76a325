import { ClientError } from './client-error';
import { LEASE_ITEM_RESERVE_BYTES, MAX_NEW_LEASE_ITEM_BYTES } from './domain/item-size';

/**
 * A lease whose stored item would pass what DynamoDB stores (its task's
 * command, env and secrets make almost all of it): refused before anything is written.
 */
export class TaskTooLargeError extends ClientError {
  constructor(
    readonly sizeBytes: number,
    readonly limitBytes = MAX_NEW_LEASE_ITEM_BYTES,
  ) {
    super(
      400,
      'TASK_TOO_LARGE',
      `The lease with its task would be stored as ${sizeBytes} bytes; a lease may be at most ${limitBytes} bytes (DynamoDB's 400 KB item limit less ${LEASE_ITEM_RESERVE_BYTES} kept for the state it gathers). Shorten task.command, task.env or task.secrets, or ship large inputs in the image or a checkpoint`,
      'task',
    );
    this.name = 'TaskTooLargeError';
  }
}

/** A refusal the caller should retry after a while: the API sends `Retry-After`. */
export class RetryLaterError extends ClientError {
  constructor(
    status: number,
    code: string,
    message: string,
    readonly retryAfterSeconds: number,
    field?: string,
  ) {
    super(status, code, message, field);
    this.name = 'RetryLaterError';
  }
}

/** The tenant has made its requests of this second (its rate limit). */
export class RateLimitedError extends RetryLaterError {
  constructor(
    readonly tenantId: string,
    readonly requestsPerSecond: number,
    retryAfterSeconds: number,
  ) {
    super(
      429,
      'RATE_LIMITED',
      `Tenant ${tenantId} may make ${requestsPerSecond} API requests a second (requestsPerSecond, GET /v1/limits); retry after ${retryAfterSeconds} s, or ask an operator to raise it`,
      retryAfterSeconds,
      'requestsPerSecond',
    );
    this.name = 'RateLimitedError';
  }
}

/** How long a tenant at its waiting-leases cap is told to wait: one admission pass (every minute). */
export const WAITING_LEASES_RETRY_AFTER_SECONDS = 60;

/**
 * The tenant has its cap of leases waiting to start (PENDING or QUEUED).
 * A 429 with Retry-After, not a 409 like the scaling-group cap: the state
 * clears by itself as the waiting leases start or end (no act of the tenant
 * is needed), so "ask again later" is the honest answer and a client's usual
 * back-off on 429 does the right thing.
 */
export class WaitingLeasesCapError extends RetryLaterError {
  constructor(
    readonly tenantId: string,
    readonly cap: number,
    readonly waiting: number,
    retryAfterSeconds = WAITING_LEASES_RETRY_AFTER_SECONDS,
  ) {
    super(
      429,
      'WAITING_LEASES_CAP_REACHED',
      `Tenant ${tenantId} has ${waiting} leases waiting to start (PENDING or QUEUED), its cap of ${cap} (maxWaitingLeases, GET /v1/limits); retry after ${retryAfterSeconds} s as they start, release one, or ask an operator to raise the cap`,
      retryAfterSeconds,
      'maxWaitingLeases',
    );
    this.name = 'WaitingLeasesCapError';
  }
}
