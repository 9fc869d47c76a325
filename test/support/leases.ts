import { DeleteMessageCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { lambdaContext } from '../../local/runtime/lambda-context';
import type { Lease, LeaseInstance } from '../../shared/domain/lease';
import { SSM_COMMAND_EVENT_TYPE } from '../../shared/domain/tasks/command-events';
import { newLeaseId } from '../../shared/ids';
import type { LeaseCommand } from '../../shared/ports/lease-commands';
import type { LeaseRepository } from '../../shared/ports/lease-repository';

/** Stores a lease as the API would (PENDING unless overridden) and returns it. */
export async function storedLease(leases: LeaseRepository, overrides: Partial<Lease> = {}): Promise<Lease> {
  const now = Date.now();
  const lease: Lease = {
    tenantId: 'tenant-w',
    // The id carries the creation time, as the API's do: reads by created-at range find it.
    leaseId: newLeaseId(overrides.createdAtMs ?? now),
    workload: 'training',
    gpus: 1,
    instanceType: 'g5.xlarge',
    status: 'PENDING',
    createdAtMs: now,
    updatedAtMs: now,
    ...overrides,
  };
  await leases.create(lease);
  return lease;
}

/** An on-demand g5.xlarge instance of `lease` as the lease worker records it at launch. */
export function launchedInstance(lease: Lease, instanceId: string, launchedAtMs: number): LeaseInstance {
  return {
    tenantId: lease.tenantId,
    leaseId: lease.leaseId,
    instanceId,
    instanceType: 'g5.xlarge',
    mode: 'on-demand',
    zone: 'us-east-1a',
    priceMicroUsdPerHour: 1_006_000,
    launchedAtMs,
    meteredUntilMs: launchedAtMs,
    billedSeconds: 0,
    billedMicroUsd: 0,
    meteringOpen: true,
  };
}

let delivered = 0;

/** An SQS record as the event source mapping hands it to the lease worker; a string body is sent as is. */
export function sqsRecord(body: string | object): SQSRecord {
  delivered += 1;
  return {
    messageId: `msg-${delivered}`,
    receiptHandle: `rh-${delivered}`,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    attributes: {
      ApproximateReceiveCount: '1',
      SentTimestamp: String(Date.now()),
      SenderId: 'test',
      ApproximateFirstReceiveTimestamp: String(Date.now()),
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:commands',
    awsRegion: 'us-east-1',
  };
}

export const commandRecord = (type: LeaseCommand['type'], lease: Lease) =>
  sqsRecord({ type, tenantId: lease.tenantId, leaseId: lease.leaseId } satisfies LeaseCommand);

/**
 * Hands every command waiting in the lease-commands queue to the lease worker,
 * as the SQS event source would, until the queue is empty; returns how many ran.
 */
export async function runQueuedCommands(
  queueUrl: string,
  worker: (event: SQSEvent, context: Context) => Promise<unknown>,
): Promise<number> {
  const sqs = new SQSClient({ useQueueUrlAsEndpoint: false });
  let ran = 0;
  for (;;) {
    const received = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }),
    );
    const messages = received.Messages ?? [];
    if (messages.length === 0) break;
    await worker(
      { Records: messages.map((m) => sqsRecord(m.Body ?? '')) },
      lambdaContext('lease-worker', 120_000),
    );
    for (const message of messages) {
      await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message.ReceiptHandle }));
    }
    ran += messages.length;
  }
  sqs.destroy();
  return ran;
}

/** SSM's status change of one command invocation, as the rule puts it on the task events queue. */
export function ssmCommandEvent(
  region: string,
  instanceId: string,
  commandId: string,
  status: string,
  atMs: number,
) {
  return {
    'detail-type': SSM_COMMAND_EVENT_TYPE,
    source: 'aws.ssm',
    region,
    time: new Date(atMs).toISOString(),
    detail: {
      'command-id': commandId,
      'instance-id': instanceId,
      status,
      ...(status === 'Success' ? { 'exit-code': 0 } : {}),
    },
  };
}
