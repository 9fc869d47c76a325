/** Errors the use cases raise; the API maps each to an HTTP status and a code. */
export class LeaseNotFoundError extends Error {
  constructor(readonly leaseId: string) {
    super(`No lease ${leaseId} for this tenant`);
    this.name = 'LeaseNotFoundError';
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
