import {
  IdempotencyAlreadyInProgressError,
  IdempotencyValidationError,
} from '@aws-lambda-powertools/idempotency';
import { ClientError } from '../../shared/client-error';

/**
 * The client error an error stands for, if any. The project's own carry their
 * status and code (ClientError); Powertools' idempotency errors are the only
 * foreign ones a client causes.
 */
export function toClientError(error: unknown): ClientError | undefined {
  if (error instanceof ClientError) return error;
  if (error instanceof IdempotencyValidationError) {
    return new ClientError(
      422,
      'IDEMPOTENCY_KEY_REUSED',
      'This Idempotency-Key was used with a different body; send a new key for a new request',
    );
  }
  if (error instanceof IdempotencyAlreadyInProgressError) {
    return new ClientError(
      409,
      'REQUEST_IN_PROGRESS',
      'A request with this Idempotency-Key is still running; retry shortly',
    );
  }
  return undefined;
}
