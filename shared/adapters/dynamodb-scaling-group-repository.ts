import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { desiredAfterUpdate, type LastScalingAction, type ScalingGroupSpec } from '../domain/scaling';
import type {
  LastEvaluation,
  MemberRecord,
  ScalingGroup,
  ScalingGroupPage,
  ScalingGroupRepository,
  StoredDecision,
} from '../ports/scaling-groups';
import { ScalingGroupDeletingError } from '../scaling-errors';
import { tenantKey } from './dynamodb-keys';
import { queryAll } from './dynamodb-query-all';

const ALL_GROUPS_INDEX = 'all-groups';
/** Value of the sparse index key every group item carries. */
const GROUP_INDEX_VALUE = 'GROUP';
/** Decisions are kept a week; GET shows the newest. */
const DECISION_TTL_SECONDS = 7 * 86_400;

const groupKey = (tenantId: string, name: string) => ({ pk: tenantKey(tenantId), sk: `GROUP#${name}` });
const decisionPrefix = (name: string) => `GROUP#${name}#DECISION#`;

type Item = Record<string, unknown>;

/** Members are a map keyed by lease id on the group item, so adding and removing one is one update. */
function toGroup(item: Item): ScalingGroup {
  const { pk: _pk, sk: _sk, groupIndex: _index, members, ...group } = item;
  return {
    ...(group as unknown as Omit<ScalingGroup, 'members'>),
    // Oldest first: a map keeps no order.
    members: Object.values((members ?? {}) as Record<string, MemberRecord>).sort(
      (a, b) => a.createdAtMs - b.createdAtMs,
    ),
  };
}

/**
 * The group a PUT leaves: the new spec, ACTIVE, members and history kept, the
 * desired size clamped into the new bounds, the version bumped. Refused while
 * the group is being deleted. (The in-memory fake applies the same rule.)
 */
export function groupAfterPut(
  existing: ScalingGroup | undefined,
  put: { tenantId: string; name: string; spec: ScalingGroupSpec; nowMs: number },
): ScalingGroup {
  if (existing?.status === 'DELETING') throw new ScalingGroupDeletingError(put.name);
  return {
    tenantId: put.tenantId,
    name: put.name,
    spec: put.spec,
    status: 'ACTIVE',
    desired: desiredAfterUpdate(put.spec, existing?.desired),
    version: (existing?.version ?? 0) + 1,
    lastAction: existing?.lastAction ?? null,
    lastEvaluation: existing?.lastEvaluation,
    members: existing?.members ?? [],
    createdAtMs: existing?.createdAtMs ?? put.nowMs,
    updatedAtMs: put.nowMs,
  };
}

/**
 * Scaling groups in one item each (spec, desired size, members, the version that
 * serialises evaluations), and their decisions as items under the group that
 * expire after a week.
 */
export class DynamoDbScalingGroupRepository implements ScalingGroupRepository {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async put(tenantId: string, name: string, spec: ScalingGroupSpec, nowMs: number): Promise<ScalingGroup> {
    const existing = await this.get(tenantId, name);
    const group = groupAfterPut(existing, { tenantId, name, spec, nowMs });
    const { members, ...fields } = group;
    try {
      await this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
            ...groupKey(tenantId, name),
            groupIndex: GROUP_INDEX_VALUE,
            ...fields,
            members: Object.fromEntries(members.map((m) => [m.leaseId, m])),
          },
          // Written over exactly the version read: a concurrent evaluation or PUT makes this retry.
          ConditionExpression:
            existing === undefined ? 'attribute_not_exists(pk)' : '#version = :read AND #status = :active',
          ExpressionAttributeNames:
            existing === undefined ? undefined : { '#version': 'version', '#status': 'status' },
          ExpressionAttributeValues:
            existing === undefined ? undefined : { ':read': existing.version, ':active': 'ACTIVE' },
        }),
      );
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return this.put(tenantId, name, spec, nowMs);
      throw error;
    }
    return group;
  }

  async get(tenantId: string, name: string): Promise<ScalingGroup | undefined> {
    const result = await this.client.send(
      new GetCommand({ TableName: this.tableName, Key: groupKey(tenantId, name), ConsistentRead: true }),
    );
    return result.Item ? toGroup(result.Item) : undefined;
  }

  async list(tenantId: string): Promise<ScalingGroup[]> {
    // Decisions share the prefix; only group items carry the index key.
    const items = await queryAll(this.client, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      FilterExpression: 'attribute_exists(groupIndex)',
      ExpressionAttributeValues: { ':pk': tenantKey(tenantId), ':prefix': 'GROUP#' },
      ConsistentRead: true,
    });
    return items.map(toGroup);
  }

  async listPage(limit: number, cursor?: string): Promise<ScalingGroupPage> {
    const result = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: ALL_GROUPS_INDEX,
        KeyConditionExpression: 'groupIndex = :group',
        ExpressionAttributeValues: { ':group': GROUP_INDEX_VALUE },
        Limit: limit,
        // The cursor stays inside the evaluator (no tenant hands one in): the whole index key.
        ExclusiveStartKey:
          cursor === undefined ? undefined : JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')),
      }),
    );
    return {
      groups: (result.Items ?? []).map(toGroup),
      nextCursor: result.LastEvaluatedKey
        ? Buffer.from(JSON.stringify(result.LastEvaluatedKey), 'utf8').toString('base64url')
        : undefined,
    };
  }

  async claim(
    group: ScalingGroup,
    outcome: { desired: number; lastAction: LastScalingAction | null; lastEvaluation: LastEvaluation },
  ): Promise<boolean> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: groupKey(group.tenantId, group.name),
          UpdateExpression:
            'SET desired = :desired, lastAction = :lastAction, lastEvaluation = :lastEvaluation, #version = :next, updatedAtMs = :at',
          ConditionExpression: '#version = :read AND #status = :active',
          ExpressionAttributeNames: { '#version': 'version', '#status': 'status' },
          ExpressionAttributeValues: {
            ':desired': outcome.desired,
            ':lastAction': outcome.lastAction,
            ':lastEvaluation': outcome.lastEvaluation,
            ':next': group.version + 1,
            ':read': group.version,
            ':active': 'ACTIVE',
            ':at': outcome.lastEvaluation.atMs,
          },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  async addMember(tenantId: string, name: string, member: MemberRecord): Promise<boolean> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: groupKey(tenantId, name),
          UpdateExpression: 'SET members.#lease = :member',
          ConditionExpression: '#status = :active',
          ExpressionAttributeNames: { '#lease': member.leaseId, '#status': 'status' },
          ExpressionAttributeValues: { ':member': member, ':active': 'ACTIVE' },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  async removeMembers(tenantId: string, name: string, leaseIds: readonly string[]): Promise<void> {
    if (leaseIds.length === 0) return;
    const names = Object.fromEntries(leaseIds.map((id, i) => [`#m${i}`, id]));
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: groupKey(tenantId, name),
          UpdateExpression: `REMOVE ${Object.keys(names)
            .map((alias) => `members.${alias}`)
            .join(', ')}`,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: names,
        }),
      );
    } catch (error) {
      // The group is gone, and its members with it.
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }

  async recordDecision(tenantId: string, name: string, decision: StoredDecision): Promise<void> {
    await this.client.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          pk: tenantKey(tenantId),
          sk: `${decisionPrefix(name)}${new Date(decision.atMs).toISOString()}`,
          ...decision,
          expiresAt: Math.floor(decision.atMs / 1000) + DECISION_TTL_SECONDS,
        },
      }),
    );
  }

  async decisions(tenantId: string, name: string, limit: number): Promise<StoredDecision[]> {
    const result = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': tenantKey(tenantId), ':prefix': decisionPrefix(name) },
        ScanIndexForward: false,
        Limit: limit,
      }),
    );
    return (result.Items ?? []).map((item) => {
      const { pk: _pk, sk: _sk, expiresAt: _ttl, ...decision } = item;
      return decision as unknown as StoredDecision;
    });
  }

  async markDeleting(tenantId: string, name: string, nowMs: number): Promise<ScalingGroup | undefined> {
    try {
      const result = await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: groupKey(tenantId, name),
          UpdateExpression: 'SET #status = :deleting, #version = #version + :one, updatedAtMs = :at',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#status': 'status', '#version': 'version' },
          ExpressionAttributeValues: { ':deleting': 'DELETING', ':one': 1, ':at': nowMs },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return result.Attributes ? toGroup(result.Attributes) : undefined;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return undefined;
      throw error;
    }
  }

  async delete(tenantId: string, name: string): Promise<void> {
    await this.client.send(new DeleteCommand({ TableName: this.tableName, Key: groupKey(tenantId, name) }));
  }
}
