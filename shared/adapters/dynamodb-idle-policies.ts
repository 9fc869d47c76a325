import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, type DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { IdlePolicy } from '../domain/waste/idle-policy';
import type { IdlePolicies, IdlePolicyRepository, IdlePolicyScope } from '../ports/idle';
import { batchGetAll } from './dynamodb-batch-get';
import { tenantKey } from './dynamodb-keys';

const POLICY_PREFIX = 'IDLE_POLICY#';
const SCOPES: readonly IdlePolicyScope[] = ['admin', 'tenant'];
const policyKey = (tenantId: string, scope: IdlePolicyScope) => ({
  pk: tenantKey(tenantId),
  sk: `${POLICY_PREFIX}${scope}`,
});

function toPolicy(item: Record<string, unknown>): IdlePolicy {
  const { pk: _pk, sk: _sk, entity: _entity, scope: _scope, tenantId: _tenant, ...policy } = item;
  return policy as unknown as IdlePolicy;
}

function collect(items: readonly Record<string, unknown>[]): IdlePolicies {
  const policies: { admin?: IdlePolicy; tenant?: IdlePolicy } = {};
  for (const item of items) policies[item.scope as IdlePolicyScope] = toPolicy(item);
  return policies;
}

/** Each tenant's admin and tenant idle policies, two items of its partition in the leases table. */
export class DynamoDbIdlePolicies implements IdlePolicyRepository {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async get(tenantId: string): Promise<IdlePolicies> {
    const { Items } = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': tenantKey(tenantId), ':prefix': POLICY_PREFIX },
        ConsistentRead: true,
      }),
    );
    return collect(Items ?? []);
  }

  async ofTenants(tenantIds: readonly string[]): Promise<Map<string, IdlePolicies>> {
    const keys = [...new Set(tenantIds)].flatMap((t) => SCOPES.map((scope) => policyKey(t, scope)));
    const items = await batchGetAll(this.client, this.tableName, keys);
    const byTenant = new Map<string, Record<string, unknown>[]>();
    for (const item of items) {
      const tenant = String(item.tenantId);
      byTenant.set(tenant, [...(byTenant.get(tenant) ?? []), item]);
    }
    return new Map([...byTenant].map(([tenant, found]) => [tenant, collect(found)]));
  }

  async put(tenantId: string, scope: IdlePolicyScope, policy: IdlePolicy): Promise<void> {
    await this.client.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...policyKey(tenantId, scope), entity: 'idle-policy', scope, tenantId, ...policy },
      }),
    );
  }

  async delete(tenantId: string, scope: IdlePolicyScope): Promise<boolean> {
    try {
      await this.client.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: policyKey(tenantId, scope),
          ConditionExpression: 'attribute_exists(pk)',
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }
}
