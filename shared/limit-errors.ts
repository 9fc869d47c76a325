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
