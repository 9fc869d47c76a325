import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { InstanceRef, MeteringWork, MeteringWorkQueue } from '../ports/metering-work';

/** Instances per message: ~100 bytes each, far below the 256 KiB SQS limit. */
const INSTANCES_PER_MESSAGE = 500;
/** SendMessageBatch takes at most ten messages. */
const MESSAGES_PER_CALL = 10;

export class SqsBatchSendError extends Error {
  constructor(readonly failed: number) {
    super(`${failed} metering work message(s) were not accepted by SQS`);
    this.name = 'SqsBatchSendError';
  }
}

export class SqsMeteringWorkQueue implements MeteringWorkQueue {
  constructor(
    private readonly client: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async defer(atMs: number, instances: readonly InstanceRef[]): Promise<void> {
    const bodies: string[] = [];
    for (let start = 0; start < instances.length; start += INSTANCES_PER_MESSAGE) {
      const work: MeteringWork = { atMs, instances: instances.slice(start, start + INSTANCES_PER_MESSAGE) };
      bodies.push(JSON.stringify(work));
    }
    for (let start = 0; start < bodies.length; start += MESSAGES_PER_CALL) {
      const result = await this.client.send(
        new SendMessageBatchCommand({
          QueueUrl: this.queueUrl,
          Entries: bodies
            .slice(start, start + MESSAGES_PER_CALL)
            .map((body, i) => ({ Id: String(start + i), MessageBody: body })),
        }),
      );
      // A message that did not get onto the queue would be work dropped: fail the run instead.
      if (result.Failed?.length) throw new SqsBatchSendError(result.Failed.length);
    }
  }
}
