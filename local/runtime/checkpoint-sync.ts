import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';

/** One attempt's checkpoint folder, kept in step with its lease's prefix in the checkpoint bucket. */
export interface CheckpointSync {
  /** Fills the folder with what the lease's earlier attempts left under its prefix. */
  download(): Promise<void>;
  /** Puts new and changed files under the prefix and removes the objects of files deleted since; one at a time. */
  upload(): Promise<void>;
}

/** Size and modification time: enough to tell that a file changed since it was last synced. */
const signatureOf = (size: number, mtimeMs: number) => `${size}:${mtimeMs}`;

async function filesUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

/**
 * What `aws s3 sync` of the prefix would do on an instance, played for the
 * local agent against moto's S3: the folder is the attempt's
 * GPURENT_CHECKPOINT_DIR, the prefix its GPURENT_CHECKPOINT_URI. Only files
 * whose size or time changed since the last sync are sent, so a periodic
 * upload of an idle folder costs one directory walk.
 */
export function checkpointSync(s3: S3Client, bucket: string, prefix: string, folder: string): CheckpointSync {
  const synced = new Map<string, string>();
  let queue: Promise<void> = Promise.resolve();
  const keyOf = (file: string) => `${prefix}${relative(folder, file).split(sep).join('/')}`;

  async function uploadOnce() {
    const present = new Set<string>();
    for (const file of await filesUnder(folder)) {
      const key = keyOf(file);
      present.add(key);
      const { size, mtimeMs } = await stat(file);
      const signature = signatureOf(size, mtimeMs);
      if (synced.get(key) === signature) continue;
      await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: await readFile(file) }));
      synced.set(key, signature);
    }
    for (const key of [...synced.keys()].filter((key) => !present.has(key))) {
      await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
      synced.delete(key);
    }
  }

  return {
    async download() {
      await mkdir(folder, { recursive: true });
      let token: string | undefined;
      do {
        const page = await s3.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
        );
        for (const object of page.Contents ?? []) {
          const key = object.Key ?? '';
          const file = join(folder, ...key.slice(prefix.length).split('/'));
          if (key.endsWith('/') || relative(folder, file).startsWith('..')) continue;
          const body = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
          await mkdir(dirname(file), { recursive: true });
          await writeFile(file, (await body.Body?.transformToByteArray()) ?? new Uint8Array());
          const { size, mtimeMs } = await stat(file);
          synced.set(key, signatureOf(size, mtimeMs));
        }
        token = page.NextContinuationToken;
      } while (token);
    },
    upload() {
      queue = queue.then(uploadOnce, uploadOnce);
      return queue;
    },
  };
}
