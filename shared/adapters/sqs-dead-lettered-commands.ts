import { DeleteMessageCommand, ReceiveMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { type DeadLetter, type DeadLetteredCommands, leaseCommandSchema } from '../ports/lease-commands';

/** SQS's most messages in one receive. */
const RECEIVE_BATCH = 10;
/**
 * How long a received letter stays hidden: past one reconcile run (the
 * Lambda's own timeout is a minute), so a run never sees one twice, and well
 * within the next, so a letter left for the operator is back by then.
 */
const HIDDEN_SECONDS = 120;

function commandOf(body: string | undefined): DeadLetter['command'] {
  try {
    const parsed = leaseCommandSchema.safeParse(JSON.parse(body ?? ''));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The lease-commands DLQ on SQS: short polls (the reconciler runs on a schedule, it does not wait). */
export class SqsDeadLetteredCommands implements DeadLetteredCommands {
  constructor(
    private readonly client: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async receive(max: number): Promise<DeadLetter[]> {
    const letters: DeadLetter[] = [];
    while (letters.length < max) {
      const page = await this.client.send(
        new ReceiveMessageCommand({
          QueueUrl: this.queueUrl,
          MaxNumberOfMessages: Math.min(RECEIVE_BATCH, max - letters.length),
          VisibilityTimeout: HIDDEN_SECONDS,
          WaitTimeSeconds: 0,
        }),
      );
      const messages = page.Messages ?? [];
      for (const message of messages) {
        letters.push({
          command: commandOf(message.Body),
          receipt: message.ReceiptHandle ?? '',
        });
      }
      // A short poll may answer empty while messages remain on other hosts; the next run reads them.
      if (messages.length === 0) break;
    }
    return letters;
  }

  async remove(letter: DeadLetter): Promise<void> {
    await this.client.send(
      new DeleteMessageCommand({ QueueUrl: this.queueUrl, ReceiptHandle: letter.receipt }),
    );
  }
}
