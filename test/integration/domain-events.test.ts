import { randomUUID } from 'node:crypto';
import { EventBridgeClient, PutRuleCommand, PutTargetsCommand } from '@aws-sdk/client-eventbridge';
import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { apiEvent } from '../../local/runtime/api-event';
import { lambdaContext } from '../../local/runtime/lambda-context';
import { EVENT_SOURCE } from '../../shared/adapters/eventbridge-publisher';
import { useFreshResources } from '../support/function-env';

// An integrator's subscription: a rule on the gpurent bus that forwards every
// gpurent event to a queue. moto delivers rule targets to its own SQS, so the
// subscriber's queue lives on moto_server rather than fauxqs.
let subscriber: SQSClient;
let queueUrl: string;
let handler: typeof import('../../functions/api/handler').handler;

beforeAll(async () => {
  const env = await useFreshResources();
  const motoUrl = inject('endpoints').events;
  subscriber = new SQSClient({ endpoint: motoUrl, useQueueUrlAsEndpoint: false });
  queueUrl =
    (await subscriber.send(new CreateQueueCommand({ QueueName: `integrator-${randomUUID()}` }))).QueueUrl ??
    '';
  const { Attributes } = await subscriber.send(
    new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['QueueArn'] }),
  );
  const events = new EventBridgeClient({});
  const bus = env.EVENT_BUS_NAME ?? '';
  await events.send(
    new PutRuleCommand({
      Name: 'integrator',
      EventBusName: bus,
      EventPattern: JSON.stringify({ source: [EVENT_SOURCE] }),
    }),
  );
  await events.send(
    new PutTargetsCommand({
      Rule: 'integrator',
      EventBusName: bus,
      Targets: [{ Id: 'queue', Arn: Attributes?.QueueArn }],
    }),
  );
  ({ handler } = await import('../../functions/api/handler'));
});

describe('domain events on the gpurent bus', () => {
  it('tells integrators about a new lease, with the tenant and the lease', async () => {
    const result = (await handler(
      apiEvent({
        routeKey: 'POST /v1/leases',
        path: '/v1/leases',
        headers: { 'idempotency-key': `events-${randomUUID()}` },
        body: JSON.stringify({ workload: 'inference', gpus: 2 }),
        claims: { 'custom:tenant': 'tenant-events' },
      }),
      lambdaContext('api', 29_000),
    )) as APIGatewayProxyStructuredResultV2;
    const { leaseId } = JSON.parse(result.body ?? '{}');

    const received = await subscriber.send(
      new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 5 }),
    );
    const delivered = (received.Messages ?? []).map((message) => JSON.parse(message.Body ?? '{}'));
    expect(delivered).toEqual([
      expect.objectContaining({
        source: 'gpurent',
        'detail-type': 'LeaseRequested',
        detail: {
          tenantId: 'tenant-events',
          leaseId,
          workload: 'inference',
          gpus: 2,
          instanceType: 'g5.xlarge',
        },
      }),
    ]);
  });
});
