import { randomUUID } from 'node:crypto';
import { EventBridgeClient, PutRuleCommand, PutTargetsCommand } from '@aws-sdk/client-eventbridge';
import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { EVENT_SOURCE } from '../../shared/adapters/eventbridge-publisher';

export interface ReceivedEvent {
  readonly 'detail-type': string;
  readonly source: string;
  readonly detail: Record<string, unknown>;
}

/**
 * An integrator's subscription: a rule on the gpurent bus that forwards every
 * gpurent event to a queue. moto delivers rule targets to its own SQS, so the
 * subscriber's queue lives on moto_server rather than fauxqs.
 */
export async function subscribeToDomainEvents(motoUrl: string, busName: string) {
  const subscriber = new SQSClient({ endpoint: motoUrl, useQueueUrlAsEndpoint: false });
  const queueUrl =
    (await subscriber.send(new CreateQueueCommand({ QueueName: `integrator-${randomUUID()}` }))).QueueUrl ??
    '';
  const { Attributes } = await subscriber.send(
    new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['QueueArn'] }),
  );
  const events = new EventBridgeClient({});
  const rule = `integrator-${randomUUID().slice(0, 8)}`;
  await events.send(
    new PutRuleCommand({
      Name: rule,
      EventBusName: busName,
      EventPattern: JSON.stringify({ source: [EVENT_SOURCE] }),
    }),
  );
  await events.send(
    new PutTargetsCommand({
      Rule: rule,
      EventBusName: busName,
      Targets: [{ Id: 'queue', Arn: Attributes?.QueueArn }],
    }),
  );
  return {
    /**
     * Every event delivered so far. moto hands a rule's matches to its SQS while it
     * answers PutEvents, so they are all visible by now: no long poll is needed, and
     * none is spent waiting a second on the empty receive that ends the drain.
     */
    async drain(): Promise<ReceivedEvent[]> {
      const received: ReceivedEvent[] = [];
      for (;;) {
        const result = await subscriber.send(
          new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }),
        );
        if (!result.Messages?.length) return received;
        received.push(...result.Messages.map((m) => JSON.parse(m.Body ?? '{}') as ReceivedEvent));
      }
    },
  };
}
