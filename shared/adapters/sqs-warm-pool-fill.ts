import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { WarmPoolFillRequests } from '../ports/warm-pool-fill';

/** One message per use; the filler fills every pool whatever the message says, so duplicates are harmless. */
export class SqsWarmPoolFillRequests implements WarmPoolFillRequests {
  constructor(
    private readonly client: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async requestFill(pool: string): Promise<void> {
    await this.client.send(
      new SendMessageCommand({ QueueUrl: this.queueUrl, MessageBody: JSON.stringify({ pool }) }),
    );
  }
}
