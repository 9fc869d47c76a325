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

/**
 * Sums a lease's checkpoint prefix with ListObjectsV2 (1,000 keys a page, the
 * one s3:ListBucket grant metering has on the bucket); the SDK's own retries
 * handle throttling before a failure is classified.
 */
export class S3CheckpointStorage implements CheckpointStorage {
  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
  ) {}

  async bytesOf(tenantId: string, leaseId: string): Promise<number> {
    let bytes = 0;
    let token: string | undefined;
    try {
      do {
        const page = await this.client.send(
          new ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix: checkpointPrefix(tenantId, leaseId),
            ContinuationToken: token,
          }),
        );
        for (const object of page.Contents ?? []) bytes += object.Size ?? 0;
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    } catch (error) {
      throw new CheckpointMeasureError(classifyS3Failure(error), tenantId, leaseId, { cause: error });
    }
    return bytes;
  }
}
