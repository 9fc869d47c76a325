/** One problem with the request: where it is (a field, or `body`/`query`) and what is wrong there. */
export interface ErrorDetail {
  readonly path: string;
  readonly message: string;
}

/**
 * An error the caller can fix: its HTTP status, a stable machine-readable code,
 * a message that says what to fix and, when one field is at fault, that field.
 * Use cases raise subclasses of it, so the API answers every one the same way
 * without knowing each class.
 */
export class ClientError extends Error {
  readonly details: readonly ErrorDetail[];

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
    /** Default: the field with this message, or none. */
    details?: readonly ErrorDetail[],
  ) {
    super(message);
    this.name = 'ClientError';
    this.details = details ?? (field === undefined ? [] : [{ path: field, message }]);
  }
}
