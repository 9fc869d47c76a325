import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import type { CheckpointReport } from '../domain/deadlines/progress';
import { PROGRESS_FILE_NAME, parseProgressFile } from '../domain/deadlines/progress-file';
import { checkpointSessionName, checkpointSessionPolicy } from '../domain/tasks/checkpoint-access';
import { checkpointPrefix } from '../domain/tasks/log-streams';
import type { CheckpointProgress } from '../ports/deadline-jobs';
import type { ScopedCredentials, TemporaryCredentials } from '../ports/scoped-credentials';

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
      sessionName: checkpointSessionName(leaseId),
      policy: checkpointSessionPolicy(this.bucket, tenantId, leaseId, 'read'),
      durationSeconds: READ_SESSION_SECONDS,
    });
    const s3 = this.s3For(credentials);
    try {
      const prefix = checkpointPrefix(tenantId, leaseId);
      const objects: { key: string; atMs: number }[] = [];
      let token: string | undefined;
      do {
        const page = await s3.send(
          new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }),
        );
        for (const object of page.Contents ?? []) {
          objects.push({ key: object.Key ?? '', atMs: object.LastModified?.getTime() ?? 0 });
        }
        token = page.NextContinuationToken;
      } while (token);
      const progressFile = objects.find((object) => object.key === `${prefix}${PROGRESS_FILE_NAME}`);
      if (progressFile) {
        const body = await s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: progressFile.key }));
        const doneMs = parseProgressFile((await body.Body?.transformToString()) ?? '');
        if (doneMs !== undefined) return [{ atMs: progressFile.atMs, doneMs }];
      }
      const latest = Math.max(...objects.map((object) => object.atMs));
      return objects.length > 0 ? [{ atMs: latest }] : [];
    } finally {
      s3.destroy();
    }
  }
}
