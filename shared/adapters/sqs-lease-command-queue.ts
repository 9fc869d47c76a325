import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { LeaseCommand, LeaseCommandQueue } from '../ports/lease-commands';

export class SqsLeaseCommandQueue implements LeaseCommandQueue {
  constructor(
    private readonly client: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async send(command: LeaseCommand, options: { delaySeconds?: number } = {}): Promise<void> {
    await this.client.send(
      new SendMessageCommand({
        QueueUrl: this.queueUrl,
        MessageBody: JSON.stringify(command),
        DelaySeconds: options.delaySeconds,
      }),
    );
  }
}
