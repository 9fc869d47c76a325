import {
  IdempotencyAlreadyInProgressError,
  IdempotencyValidationError,
} from '@aws-lambda-powertools/idempotency';
import { InvalidCursorError } from '../../shared/adapters/dynamodb-cursor';
import { AuditMonthError } from '../../shared/domain/audit/audit-month';
import {
  BudgetExceededError,
  BudgetNotFoundError,
  LeaseNotFoundError,
  PriceBelowEveryPoolError,
  UnknownGpuModelError,
  UnknownImageError,
  UnknownRegionError,
  UnsupportedInstanceTypeError,
} from '../../shared/errors';
import { CommitmentInUseError } from '../../shared/ports/commitments';
import { ScalingGroupDeletingError, ScalingGroupNotFoundError } from '../../shared/scaling-errors';
import { BudgetUpdateConflictError } from '../../shared/usecases/budgets/put-budget';
import { InvalidCommitmentError } from '../../shared/usecases/commitments';
import {
  ImageVersionExistsError,
  ImageVersionNotFoundError,
  NothingToRollBackError,
} from '../../shared/usecases/images';
import { ApiError } from './http';

/** Maps the errors use cases and adapters raise on bad client input to API errors. */
export function toApiError(error: unknown): ApiError | undefined {
  if (error instanceof UnsupportedInstanceTypeError) {
    return new ApiError(400, 'UNSUPPORTED_INSTANCE_TYPE', error.message, [
      { path: 'instanceType', message: error.message },
    ]);
  }
  if (error instanceof AuditMonthError) {
    return new ApiError(400, error.code, error.message, [{ path: 'month', message: error.message }]);
  }
  if (error instanceof UnknownRegionError) {
    return new ApiError(400, 'UNKNOWN_REGION', error.message, [
      { path: error.field, message: error.message },
    ]);
  }
  if (error instanceof UnknownGpuModelError) {
    return new ApiError(400, 'UNKNOWN_GPU_MODEL', error.message, [
      { path: 'gpuModel', message: error.message },
    ]);
  }
  if (error instanceof PriceBelowEveryPoolError) {
    return new ApiError(400, 'MAX_PRICE_BELOW_EVERY_POOL', error.message, [
      { path: 'maxHourlyPrice', message: error.message },
    ]);
  }
  if (error instanceof InvalidCommitmentError) {
    return new ApiError(400, 'INVALID_RESERVATION', error.message, [
      { path: error.field, message: error.message },
    ]);
  }
  if (error instanceof CommitmentInUseError) return new ApiError(409, 'RESERVATION_IN_USE', error.message);
  if (error instanceof ImageVersionNotFoundError)
    return new ApiError(404, 'IMAGE_VERSION_NOT_FOUND', error.message);
  if (error instanceof ImageVersionExistsError)
    return new ApiError(409, 'IMAGE_VERSION_EXISTS', error.message);
  if (error instanceof NothingToRollBackError)
    return new ApiError(409, 'NOTHING_TO_ROLL_BACK', error.message);
  if (error instanceof UnknownImageError) {
    return new ApiError(400, 'UNKNOWN_IMAGE', error.message, [{ path: 'image', message: error.message }]);
  }
  if (error instanceof LeaseNotFoundError) return new ApiError(404, 'LEASE_NOT_FOUND', error.message);
  if (error instanceof BudgetNotFoundError) return new ApiError(404, 'BUDGET_NOT_FOUND', error.message);
  if (error instanceof BudgetExceededError) {
    return new ApiError(402, 'BUDGET_EXCEEDED', error.message, [
      { path: 'budget', message: error.budgetName },
    ]);
  }
  if (error instanceof BudgetUpdateConflictError) return new ApiError(409, 'BUDGET_CHANGED', error.message);
  if (error instanceof ScalingGroupNotFoundError) {
    return new ApiError(404, 'SCALING_GROUP_NOT_FOUND', error.message);
  }
  if (error instanceof ScalingGroupDeletingError)
    return new ApiError(409, 'SCALING_GROUP_DELETING', error.message);
  if (error instanceof InvalidCursorError) {
    return new ApiError(400, 'INVALID_CURSOR', 'cursor must be a nextCursor value returned by this API');
  }
  if (error instanceof IdempotencyValidationError) {
    return new ApiError(
      422,
      'IDEMPOTENCY_KEY_REUSED',
      'This Idempotency-Key was used with a different body; send a new key for a new request',
    );
  }
  if (error instanceof IdempotencyAlreadyInProgressError) {
    return new ApiError(
      409,
      'REQUEST_IN_PROGRESS',
      'A request with this Idempotency-Key is still running; retry shortly',
    );
  }
  return undefined;
}
