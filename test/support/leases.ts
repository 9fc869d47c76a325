import type { SQSRecord } from 'aws-lambda';
import type { Lease } from '../../shared/domain/lease';
import { newLeaseId } from '../../shared/ids';
import type { LeaseCommand } from '../../shared/ports/lease-commands';
import type { LeaseRepository } from '../../shared/ports/lease-repository';

/** Stores a lease as the API would (PENDING unless overridden) and returns it. */
export async function storedLease(leases: LeaseRepository, overrides: Partial<Lease> = {}): Promise<Lease> {
  const now = Date.now();
  const lease: Lease = {
    tenantId: 'tenant-w',
    leaseId: newLeaseId(now),
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
