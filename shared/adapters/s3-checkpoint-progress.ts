import {
  GetObjectCommand,
  type GetObjectCommandOutput,
  ListObjectsV2Command,
  NoSuchKey,
  S3Client,
} from '@aws-sdk/client-s3';
import type { CheckpointReport } from '../domain/deadlines/progress';
import { PROGRESS_FILE_NAME, parseProgressFile } from '../domain/deadlines/progress-file';
import { checkpointReadPolicy, leaseMachineSessionName } from '../domain/tasks/lease-machine-access';
import { checkpointPrefix } from '../domain/tasks/log-streams';
import { type CheckpointProgress, CheckpointReadError } from '../ports/deadline-jobs';
import type { ScopedCredentials, TemporaryCredentials } from '../ports/scoped-credentials';

/** A progress file holds a number of minutes: more than this is not one. */
export const PROGRESS_FILE_MAX_BYTES = 64;
/** S3's largest page. */
const LIST_PAGE_KEYS = 1000;
/** Keys of a prefix listed at most for its newest checkpoint: ten pages. */
export const CHECKPOINT_LIST_MAX_KEYS = 10_000;

/** AssumeRole's shortest session: the credentials serve one listing and one read. */
const READ_SESSION_SECONDS = 900;

/**
 * A task's progress from its checkpoints in the bucket, read as the task
 * wrote them: through the checkpoint role narrowed to the lease's prefix (and
 * to reads), as every other use of the bucket. The progress file is a report
 * of the work it names, as old as its object; without one, the newest
 * checkpoint object is a report of its time alone (progress is then the time
 * the runs had worked by it).
 */
export class S3CheckpointProgress implements CheckpointProgress {
  constructor(
    private readonly bucket: string,
    private readonly access: ScopedCredentials,
    private readonly s3For: (credentials: TemporaryCredentials) => S3Client = (credentials) =>
      new S3Client({ credentials }),
  ) {}

  async reports(tenantId: string, leaseId: string): Promise<readonly CheckpointReport[]> {
    const credentials = await this.access.mint({
      sessionName: leaseMachineSessionName(leaseId),
      policy: checkpointReadPolicy(this.bucket, tenantId, leaseId),
      durationSeconds: READ_SESSION_SECONDS,
    });
    const s3 = this.s3For(credentials);
    try {
      const prefix = checkpointPrefix(tenantId, leaseId);
      const fromFile = await this.progressFile(s3, tenantId, leaseId, `${prefix}${PROGRESS_FILE_NAME}`);
      if (fromFile) return [fromFile];
      const latest = await this.latestCheckpoint(s3, tenantId, leaseId, prefix);
      return latest === undefined ? [] : [{ atMs: latest }];
    } finally {
      s3.destroy();
    }
  }

  /**
   * The progress file, read with a byte range: a number of minutes fits in
   * PROGRESS_FILE_MAX_BYTES, and a file the tenant made larger is refused by
   * its size (S3 says it in Content-Range) without its body being read.
   */
  private async progressFile(
    s3: S3Client,
    tenantId: string,
    leaseId: string,
    key: string,
  ): Promise<CheckpointReport | undefined> {
    let object: GetObjectCommandOutput;
    try {
      object = await s3.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Range: `bytes=0-${PROGRESS_FILE_MAX_BYTES - 1}`,
        }),
      );
    } catch (error) {
      // No file; or an empty one, whose range S3 cannot satisfy (416 InvalidRange): no report either way.
      if (error instanceof NoSuchKey || ['NoSuchKey', 'InvalidRange'].includes((error as Error).name))
        return undefined;
      throw error;
    }
    const size = Number(/\/(\d+)$/.exec(object.ContentRange ?? '')?.[1] ?? object.ContentLength ?? 0);
    if (size > PROGRESS_FILE_MAX_BYTES) {
      await object.Body?.transformToByteArray();
      throw new CheckpointReadError(
        tenantId,
        leaseId,
        `${PROGRESS_FILE_NAME} is ${size} bytes; gpurent reads at most ${PROGRESS_FILE_MAX_BYTES} (a number of minutes)`,
      );
    }
    const doneMs = parseProgressFile((await object.Body?.transformToString()) ?? '');
    return doneMs === undefined ? undefined : { atMs: object.LastModified?.getTime() ?? 0, doneMs };
  }

  /** The newest checkpoint object's time, listing at most CHECKPOINT_LIST_MAX_KEYS keys of the prefix. */
  private async latestCheckpoint(
    s3: S3Client,
    tenantId: string,
    leaseId: string,
    prefix: string,
  ): Promise<number | undefined> {
    let latest: number | undefined;
    let token: string | undefined;
    for (let page = 0; page < CHECKPOINT_LIST_MAX_KEYS / LIST_PAGE_KEYS; page += 1) {
      const listed = await s3.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: prefix,
          ContinuationToken: token,
          MaxKeys: LIST_PAGE_KEYS,
        }),
      );
      for (const object of listed.Contents ?? []) {
        const atMs = object.LastModified?.getTime() ?? 0;
        latest = latest === undefined ? atMs : Math.max(latest, atMs);
      }
      token = listed.IsTruncated ? listed.NextContinuationToken : undefined;
      if (!token) return latest;
    }
    throw new CheckpointReadError(
      tenantId,
      leaseId,
      `more than ${CHECKPOINT_LIST_MAX_KEYS} checkpoint objects and no ${PROGRESS_FILE_NAME}; write one for the progress to be read`,
    );
  }
}
