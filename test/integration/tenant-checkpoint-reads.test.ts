/**
 * #41: a tenant's checkpoints are its own to fill. A progress file far past
 * what gpurent reads fails that lease's read with the reason, in the decision
 * it shows; the other commands of the same SQS batch, and the API's view of
 * the lease, go on as if nothing happened.
 */
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { SQSEvent } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { lambdaContext } from '../../local/runtime/lambda-context';
import { PROGRESS_FILE_MAX_BYTES } from '../../shared/adapters/s3-checkpoint-progress';
import { PROGRESS_FILE_NAME } from '../../shared/domain/deadlines/progress-file';
import { checkpointPrefix } from '../../shared/domain/tasks/log-streams';
import { awsProbe } from '../support/aws';
import { type Harness, startHarness } from '../support/harness';
import { runQueuedCommands, sqsRecord } from '../support/leases';

let h: Harness;
let worker: typeof import('../../functions/lease-worker/handler').handler;

beforeAll(async () => {
  h = await startHarness();
  ({ handler: worker } = await import('../../functions/lease-worker/handler'));
});

const TENANT = 'tenant-reads';
const MINUTE = 60_000;
const queueUrl = () => h.env.LEASE_COMMANDS_QUEUE_URL ?? '';

/** A running lease whose task has a deadline (6 hours away, 60 minutes of work). */
async function deadlineJob(): Promise<string> {
  const created = await h.call(TENANT, 'POST /v1/leases', {
    body: {
      workload: 'batch',
      gpus: 1,
      instanceType: 'g5.xlarge',
      task: {
        command: ['python', 'train.py'],
        deadline: new Date(Date.now() + 360 * MINUTE).toISOString(),
        workMinutes: 60,
      },
    },
  });
  expect(created.status).toBe(202);
  await runQueuedCommands(queueUrl(), worker);
  return String(created.body.leaseId);
}

async function writeProgressFile(leaseId: string, body: string) {
  const s3 = new S3Client({ forcePathStyle: true });
  await s3.send(
    new PutObjectCommand({
      Bucket: h.env.CHECKPOINT_BUCKET_NAME,
      Key: `${checkpointPrefix(TENANT, leaseId)}${PROGRESS_FILE_NAME}`,
      Body: body,
    }),
  );
  s3.destroy();
}

describe('a tenant’s oversized progress file', { timeout: 180_000 }, () => {
  it('fails only its own lease’s read, with the reason; the batch’s other command and the API view go on', async () => {
    await awsProbe().purge(queueUrl());
    const bloated = await deadlineJob();
    const healthy = await deadlineJob();
    const oversize = 1_000_000;
    await writeProgressFile(bloated, '7'.repeat(oversize));
    await writeProgressFile(healthy, '30');

    const atMs = Date.now();
    const batch: SQSEvent = {
      Records: [bloated, healthy].map((leaseId) =>
        sqsRecord({ type: 'decide', tenantId: TENANT, leaseId, atMs }),
      ),
    };
    const result = await worker(batch, lambdaContext('lease-worker', 120_000));
    expect(result.batchItemFailures).toEqual([]);

    const decided = await h.stores.leases.get(TENANT, bloated);
    expect(decided?.deadlineDecision?.trigger).not.toBe('launch');
    expect(decided?.deadlineDecision?.doneMs).toBe(0);
    expect(decided?.deadlineDecision?.reason).toContain(
      `its checkpoints could not be read (gpurent-progress is ${oversize} bytes; gpurent reads at most ${PROGRESS_FILE_MAX_BYTES} (a number of minutes)), so no progress is counted as saved`,
    );
    const other = await h.stores.leases.get(TENANT, healthy);
    expect(other?.deadlineDecision?.trigger).not.toBe('launch');
    expect(other?.deadlineDecision?.doneMs).toBe(30 * MINUTE);
    expect(other?.deadlineDecision?.reason).not.toContain('could not be read');

    const view = await h.call(TENANT, 'GET /v1/leases/{id}', { params: { id: bloated } });
    expect(view.status).toBe(200);
    expect(view.body.status).toBe('RUNNING');
  });
});
