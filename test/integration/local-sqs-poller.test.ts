import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  SendMessageBatchCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { CONCURRENT_BATCHES, startSqsPoller } from '../../local/runtime/sqs-poller';
import { emulatorEndpoints } from '../support/emulators';

/*
 * The local stand-in for Lambda's SQS event source mapping, on fauxqs: one
 * slow batch does not hold up the batches behind it, as with Lambda's five
 * concurrent batches, and every message is handled once and deleted.
 */
const sqs = new SQSClient({
  endpoint: emulatorEndpoints().sqs,
  region: 'us-east-1',
  credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  useQueueUrlAsEndpoint: false,
});

async function queueWith(messages: number): Promise<string> {
  const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: `poller-${Date.now()}` }));
  const url = QueueUrl ?? '';
  for (let first = 0; first < messages; first += 10) {
    const ids = Array.from({ length: Math.min(10, messages - first) }, (_, i) => String(first + i));
    await sqs.send(
      new SendMessageBatchCommand({ QueueUrl: url, Entries: ids.map((id) => ({ Id: id, MessageBody: id })) }),
    );
  }
  return url;
}

const visibleMessages = async (url: string) => {
  const { Attributes } = await sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: url,
      AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
    }),
  );
  return (
    Number(Attributes?.ApproximateNumberOfMessages) +
    Number(Attributes?.ApproximateNumberOfMessagesNotVisible)
  );
};

describe('local SQS poller', () => {
  it('runs batches side by side, so a batch waiting on another does not deadlock, and deletes each message once handled', async () => {
    const url = await queueWith(40);
    const handled: string[] = [];
    let inFlight = 0;
    let mostInFlight = 0;
    // Each batch waits until another batch runs beside it (or the queue holds nothing more for it):
    // with one batch at a time the first batch would wait until the test times out.
    let release: () => void = () => {};
    const twoRunning = new Promise<void>((resolve) => {
      release = resolve;
    });
    const poller = startSqsPoller(
      sqs,
      url,
      async (event: SQSEvent) => {
        inFlight += 1;
        mostInFlight = Math.max(mostInFlight, inFlight);
        if (inFlight >= 2) release();
        await twoRunning;
        handled.push(...event.Records.map((record) => record.body));
        inFlight -= 1;
        return { batchItemFailures: [] };
      },
      { functionName: 'poller-test', region: 'us-east-1', timeoutMs: 30_000 },
    );
    try {
      await twoRunning;
      await expect.poll(() => handled.length, { timeout: 30_000 }).toBe(40);
      await expect.poll(() => visibleMessages(url), { timeout: 30_000 }).toBe(0);
    } finally {
      await poller.stop();
    }
    expect([...handled].sort()).toEqual(Array.from({ length: 40 }, (_, i) => String(i)).sort());
    expect(mostInFlight).toBeGreaterThanOrEqual(2);
    expect(mostInFlight).toBeLessThanOrEqual(CONCURRENT_BATCHES);
  });
});
