/** Why a lease's checkpoints could not be measured: the caller keeps billing the last measurement. */
export type CheckpointMeasureFailure =
  /** The bucket or the grant is wrong: a deployment problem, not a passing one. */
  | 'misconfigured'
  /** Throttled, timed out or a server error: the next measurement will likely succeed. */
  | 'transient'
  /**
   * The lease's task wrote more objects than one measurement lists
   * (CHECKPOINT_MEASURE_MAX_KEYS): listing them all would hold up the
   * metering of every other lease in the run.
   */
  | 'too-many-objects';

export class CheckpointMeasureError extends Error {
  constructor(
    readonly failure: CheckpointMeasureFailure,
    readonly tenantId: string,
    readonly leaseId: string,
    options: { readonly cause?: unknown } = {},
  ) {
    super(`Could not measure the checkpoints of ${tenantId}/${leaseId} (${failure})`, options);
    this.name = 'CheckpointMeasureError';
  }
}

/** The bytes a lease's task keeps in the checkpoint bucket, under `<tenantId>/<leaseId>/`. */
export interface CheckpointStorage {
  /** The sum of the prefix's object sizes now; throws CheckpointMeasureError. */
  bytesOf(tenantId: string, leaseId: string): Promise<number>;
}
