import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { PriceCatalog } from '../domain/catalog';
import { type DeadlineJobRecord, deadlineJobRecord } from '../domain/deadlines/job-record';
import type { StoredDecision } from '../domain/deadlines/policy-input';
import {
  type CheckpointProgress,
  CheckpointReadError,
  type DeadlineJobs,
  type OpenDeadlineJobs,
} from '../ports/deadline-jobs';
import type { LeaseRepository } from '../ports/lease-repository';
import { OPEN_DEADLINE_JOBS_INDEX } from '../resources';
import { DEADLINE_OPEN, deadlineDecisionKey, leaseKey, tenantKey } from './dynamodb-keys';
import { queryAll } from './dynamodb-query-all';

export interface DeadlineJobSources {
  readonly leases: Pick<LeaseRepository, 'get'>;
  readonly progress: CheckpointProgress;
  readonly catalog: PriceCatalog;
  readonly regions: readonly string[];
  readonly homeRegion: string;
}

/**
 * Jobs with deadlines in the leases table: the record is the lease (read as
 * the lease repository reads it) with its checkpoints' progress; each
 * decision is appended under `DEADLINE#<leaseId>#<instant>` in the tenant's
 * partition and becomes the lease's `deadlineDecision` unless a later one got
 * there first. Closing a job drops the lease's `deadlineOpen` (the schedule's index).
 */
export class DynamoDbDeadlineJobs implements DeadlineJobs {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly sources: DeadlineJobSources,
  ) {}

  async get(tenantId: string, leaseId: string): Promise<DeadlineJobRecord | null> {
    const lease = await this.sources.leases.get(tenantId, leaseId);
    if (!lease?.task?.spec.deadline) return null;
    try {
      const reports = await this.sources.progress.reports(tenantId, leaseId);
      return deadlineJobRecord(lease, reports, this.sources.catalog, this.sources);
    } catch (error) {
      // The tenant's own checkpoints are past what is read: this job decides as if nothing were
      // saved (the deadline-safe side) and says why; no other lease, nor the batch, is touched.
      if (!(error instanceof CheckpointReadError)) throw error;
      const record = deadlineJobRecord(lease, [], this.sources.catalog, this.sources);
      return record && { ...record, progressUnreadable: error.reason };
    }
  }

  async recordDecision(tenantId: string, leaseId: string, decision: StoredDecision): Promise<void> {
    try {
      await this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
            pk: tenantKey(tenantId),
            sk: deadlineDecisionKey(leaseId, decision.atMs),
            entity: 'deadline-decision',
            leaseId,
            ...decision,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    } catch (error) {
      // A redelivered command decided at the same instant: the first record stands.
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: tenantKey(tenantId), sk: leaseKey(leaseId) },
          UpdateExpression: 'SET deadlineDecision = :decision',
          ConditionExpression:
            'attribute_exists(pk) AND (attribute_not_exists(deadlineDecision) OR deadlineDecision.atMs <= :at)',
          ExpressionAttributeValues: { ':decision': decision, ':at': decision.atMs },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }

  async close(tenantId: string, leaseId: string): Promise<void> {
    await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { pk: tenantKey(tenantId), sk: leaseKey(leaseId) },
        UpdateExpression: 'REMOVE deadlineOpen',
        ConditionExpression: 'attribute_exists(pk)',
      }),
    );
  }
}

/** The leases whose `deadlineOpen` is set, from the leases table's sparse index (keys only). */
export class DynamoDbOpenDeadlineJobs implements OpenDeadlineJobs {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async list(): Promise<readonly { tenantId: string; leaseId: string }[]> {
    const keys = await queryAll(this.client, {
      TableName: this.tableName,
      IndexName: OPEN_DEADLINE_JOBS_INDEX,
      KeyConditionExpression: 'deadlineOpen = :open',
      ExpressionAttributeValues: { ':open': DEADLINE_OPEN },
      ProjectionExpression: 'pk, sk',
    });
    return keys.map(({ pk, sk }) => ({
      tenantId: String(pk).slice(tenantKey('').length),
      leaseId: String(sk).slice(leaseKey('').length),
    }));
  }
}
