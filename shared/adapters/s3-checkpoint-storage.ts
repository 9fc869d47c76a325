import { ListObjectsV2Command, type S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { checkpointPrefix } from '../domain/tasks/log-streams';
import {
  CheckpointMeasureError,
  type CheckpointMeasureFailure,
  type CheckpointStorage,
} from '../ports/checkpoint-storage';

/** S3 answers these when the bucket or the grant is wrong; retrying will not help. */
const MISCONFIGURED = new Set(['NoSuchBucket', 'AccessDenied', 'AllAccessDisabled', 'InvalidBucketName']);

/** A failed listing as the caller can act on it: misconfigured, or worth another try later. */
export function classifyS3Failure(error: unknown): CheckpointMeasureFailure {
  if (error instanceof S3ServiceException && MISCONFIGURED.has(error.name)) return 'misconfigured';
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  return status === 403 || status === 404 ? 'misconfigured' : 'transient';
}

/** S3's largest page. */
const LIST_PAGE_KEYS = 1000;
/**
 * Keys one measurement lists at most (100 pages, a few seconds): the prefix
 * is the tenant's to fill, and a measurement shares the metering run's time
 * with every other lease's.
 */
export const CHECKPOINT_MEASURE_MAX_KEYS = 100_000;

/**
 * Sums a lease's checkpoint prefix with ListObjectsV2 (1,000 keys a page, the
 * one s3:ListBucket grant metering has on the bucket); the SDK's own retries
 * handle throttling before a failure is classified. A prefix past
 * CHECKPOINT_MEASURE_MAX_KEYS fails that lease's measurement ('too-many-objects'):
 * it keeps its last one, the other leases' are measured.
 */
export class S3CheckpointStorage implements CheckpointStorage {
  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
  ) {}

  async bytesOf(tenantId: string, leaseId: string): Promise<number> {
    let bytes = 0;
    let token: string | undefined;
    for (let pages = 0; pages < CHECKPOINT_MEASURE_MAX_KEYS / LIST_PAGE_KEYS; pages += 1) {
      try {
        const page = await this.client.send(
          new ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix: checkpointPrefix(tenantId, leaseId),
            ContinuationToken: token,
            MaxKeys: LIST_PAGE_KEYS,
          }),
        );
        for (const object of page.Contents ?? []) bytes += object.Size ?? 0;
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } catch (error) {
        throw new CheckpointMeasureError(classifyS3Failure(error), tenantId, leaseId, { cause: error });
      }
      if (!token) return bytes;
    }
    throw new CheckpointMeasureError('too-many-objects', tenantId, leaseId);
  }
}
