/**
 * #41: a lease's checkpoint prefix is the tenant's to fill. Each read of it is
 * bounded (bytes of the progress file, keys of a listing), and a read past the
 * bound fails that lease's read with a reason: S3 here is aws-sdk-client-mock,
 * playing a prefix of millions of keys and a progress file of gigabytes.
 */
import { GetObjectCommand, ListObjectsV2Command, NoSuchKey, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CHECKPOINT_LIST_MAX_KEYS,
  PROGRESS_FILE_MAX_BYTES,
  S3CheckpointProgress,
} from '../../../shared/adapters/s3-checkpoint-progress';
import {
  CHECKPOINT_MEASURE_MAX_KEYS,
  S3CheckpointStorage,
} from '../../../shared/adapters/s3-checkpoint-storage';
import { CheckpointMeasureError } from '../../../shared/ports/checkpoint-storage';
import { CheckpointReadError } from '../../../shared/ports/deadline-jobs';
import type { ScopedCredentials } from '../../../shared/ports/scoped-credentials';

const s3 = mockClient(S3Client);
afterAll(() => s3.restore());
beforeEach(() => s3.reset());

const credentials: ScopedCredentials = {
  mint: async () => ({ accessKeyId: 'a', secretAccessKey: 's', sessionToken: 't', expiration: new Date(0) }),
} as unknown as ScopedCredentials;
const progress = () => new S3CheckpointProgress('bucket', credentials, () => new S3Client({}));
/** The part of an SDK stream body the adapter reads. */
const body = (text: string) =>
  ({
    transformToString: async () => text,
    transformToByteArray: async () => new TextEncoder().encode(text),
  }) as never;

/** A prefix that never ends: every page says there is another. */
function endlessListing() {
  let pages = 0;
  s3.on(ListObjectsV2Command).callsFake(async () => {
    pages += 1;
    const at = new Date(Date.UTC(2026, 0, 1, 0, 0, pages));
    return {
      Contents: Array.from({ length: 1000 }, (_, i) => ({
        Key: `k${pages}-${i}`,
        Size: 10,
        LastModified: at,
      })),
      IsTruncated: true,
      NextContinuationToken: `page-${pages + 1}`,
    };
  });
  return () => pages;
}

describe('reading a task’s progress', () => {
  it('asks S3 for the progress file’s first bytes only, and reads a number written there', async () => {
    s3.on(GetObjectCommand).resolves({
      Body: body('42.5'),
      ContentRange: 'bytes 0-3/4',
      LastModified: new Date(5_000),
    });
    expect(await progress().reports('tenant-a', 'lease-a')).toEqual([{ atMs: 5_000, doneMs: 2_550_000 }]);
    expect(s3.commandCalls(GetObjectCommand)[0]?.args[0].input.Range).toBe(
      `bytes=0-${PROGRESS_FILE_MAX_BYTES - 1}`,
    );
    expect(s3.commandCalls(ListObjectsV2Command)).toHaveLength(0);
  });

  it('refuses a progress file of gigabytes by its size, naming it, without reading past the range', async () => {
    s3.on(GetObjectCommand).resolves({
      Body: body('1'.repeat(PROGRESS_FILE_MAX_BYTES)),
      ContentRange: `bytes 0-${PROGRESS_FILE_MAX_BYTES - 1}/5000000000`,
      LastModified: new Date(5_000),
    });
    const read = progress().reports('tenant-a', 'lease-a');
    await expect(read).rejects.toBeInstanceOf(CheckpointReadError);
    await expect(read).rejects.toMatchObject({
      leaseId: 'lease-a',
      reason: `gpurent-progress is 5000000000 bytes; gpurent reads at most ${PROGRESS_FILE_MAX_BYTES} (a number of minutes)`,
    });
  });

  it('without a progress file lists at most its key limit, then fails that lease’s read with the reason', async () => {
    s3.on(GetObjectCommand).rejects(new NoSuchKey({ message: 'none', $metadata: {} }));
    const pages = endlessListing();
    const read = progress().reports('tenant-a', 'lease-a');
    await expect(read).rejects.toMatchObject({
      name: 'CheckpointReadError',
      reason: `more than ${CHECKPOINT_LIST_MAX_KEYS} checkpoint objects and no gpurent-progress; write one for the progress to be read`,
    });
    expect(pages()).toBe(CHECKPOINT_LIST_MAX_KEYS / 1000);
  });

  it('takes the newest checkpoint’s time from a listing within the limit', async () => {
    s3.on(GetObjectCommand).rejects(new NoSuchKey({ message: 'none', $metadata: {} }));
    s3.on(ListObjectsV2Command).resolves({
      Contents: [
        { Key: 'a', LastModified: new Date(1_000) },
        { Key: 'b', LastModified: new Date(3_000) },
      ],
      IsTruncated: false,
    });
    expect(await progress().reports('tenant-a', 'lease-a')).toEqual([{ atMs: 3_000 }]);
  });
});

describe('measuring a lease’s checkpoints for billing', () => {
  it('lists at most its key limit, then fails that lease’s measurement as too-many-objects', async () => {
    const pages = endlessListing();
    const measure = new S3CheckpointStorage(new S3Client({}), 'bucket').bytesOf('tenant-a', 'lease-a');
    await expect(measure).rejects.toBeInstanceOf(CheckpointMeasureError);
    await expect(measure).rejects.toMatchObject({ failure: 'too-many-objects', leaseId: 'lease-a' });
    expect(pages()).toBe(CHECKPOINT_MEASURE_MAX_KEYS / 1000);
  });

  it('sums a prefix within the limit', async () => {
    s3.on(ListObjectsV2Command).resolves({ Contents: [{ Size: 3 }, { Size: 4 }], IsTruncated: false });
    expect(await new S3CheckpointStorage(new S3Client({}), 'bucket').bytesOf('tenant-a', 'lease-a')).toBe(7);
  });
});
