import {
  DeleteMessageBatchCommand,
  type Message,
  ReceiveMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { invoke } from './lambda-context';

type SqsHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | undefined>;

/** An SQS message as Lambda's event source mapping hands it to a function. */
export function toRecord(message: Message, queueArn: string, region: string): SQSEvent['Records'][number] {
  const attributes = message.Attributes ?? {};
  return {
    messageId: message.MessageId ?? '',
    receiptHandle: message.ReceiptHandle ?? '',
    body: message.Body ?? '',
    attributes: {
      ApproximateReceiveCount: attributes.ApproximateReceiveCount ?? '1',
      SentTimestamp: attributes.SentTimestamp ?? String(Date.now()),
      SenderId: attributes.SenderId ?? 'local',
      ApproximateFirstReceiveTimestamp: attributes.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
    },
    messageAttributes: {},
    md5OfBody: message.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion: region,
  };
}

export interface SqsPoller {
  stop(): Promise<void>;
}

/**
 * Lambda's SQS event source mapping starts by processing five batches at a
 * time with five concurrent invocations (and scales up from there): one slow
 * batch never holds up the messages behind it. Locally one poller waits on
 * an idle queue (as few calls as before) and each batch it finds starts
 * another, up to five; the extra ones stop when they find the queue empty.
 */
export const CONCURRENT_BATCHES = 5;

/**
 * Plays Lambda's SQS event source mapping: up to CONCURRENT_BATCHES pollers
 * each long-poll batches of up to ten, invoke the consumer, delete what succeeded
 * and leave the reported `batchItemFailures` (or the whole batch, if the
 * invocation threw) to come back after the visibility timeout and, in the
 * end, to the DLQ.
 */
export function startSqsPoller(
  client: SQSClient,
  queueUrl: string,
  handler: SqsHandler,
  options: { functionName: string; region: string; timeoutMs: number },
): SqsPoller {
  const queueArn = `arn:aws:sqs:${options.region}:000000000000:${queueUrl.split('/').pop()}`;
  let running = true;
  const pollers = new Set<Promise<void>>();
  const startPoller = (idleStops: boolean) => {
    const poller = poll(idleStops).finally(() => pollers.delete(poller));
    pollers.add(poller);
  };
  const poll = async (idleStops: boolean) => {
    while (running) {
      try {
        const received = await client.send(
          new ReceiveMessageCommand({
            QueueUrl: queueUrl,
            MaxNumberOfMessages: 10,
            WaitTimeSeconds: 1,
            MessageSystemAttributeNames: ['All'],
          }),
        );
        const messages = received.Messages ?? [];
        if (messages.length === 0) {
          if (idleStops) return;
          continue;
        }
        if (pollers.size < CONCURRENT_BATCHES) startPoller(true);
        const event: SQSEvent = { Records: messages.map((m) => toRecord(m, queueArn, options.region)) };
        let failed = new Set(messages.map((m) => m.MessageId));
        try {
          const result = await invoke(options.functionName, options.timeoutMs, (context) =>
            handler(event, context),
          );
          failed = new Set((result?.batchItemFailures ?? []).map((failure) => failure.itemIdentifier));
        } catch (error) {
          console.error(`${options.functionName} failed a batch`, error);
        }
        const done = messages.filter((m) => !failed.has(m.MessageId));
        if (done.length > 0) {
          await client.send(
            new DeleteMessageBatchCommand({
              QueueUrl: queueUrl,
              Entries: done.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle ?? '' })),
            }),
          );
        }
      } catch (error) {
        if (running) {
          console.error(`polling ${queueUrl} failed`, error);
          await new Promise((resolve) => setTimeout(resolve, 1000));
        }
      }
    }
  };
  startPoller(false);
  return {
    async stop() {
      running = false;
      while (pollers.size > 0) await Promise.all(pollers);
    },
  };
}
