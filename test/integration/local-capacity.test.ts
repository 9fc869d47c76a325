import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_GPU_REGIONS } from '../../local/bootstrap';
import { LOCAL_VCPU_QUOTA } from '../../local/environment';
import { type LocalStack, startLocalStack } from '../../local/stack';
import { DynamoDbAdmissionStore } from '../../shared/adapters/dynamodb-admission-store';
import { poolKey } from '../../shared/domain/admission/claims';
import { vcpuQuotaId, vcpuQuotaKeys } from '../../shared/domain/admission/fleet-capacity';
import { TABLES } from '../../shared/resources';
import { localDynamoDb } from '../support/admission';
import { emulatorEndpoints } from '../support/emulators';

/*
 * Local mode knows the account's vCPU quotas from the start: moto has none, so
 * ACCOUNT_VCPU_QUOTAS names every pool (the operator's where given, else
 * LOCAL_VCPU_QUOTA) and the capacity refresh runs once as the stack starts.
 */
let stack: LocalStack;
const saved = process.env.ACCOUNT_VCPU_QUOTAS;
const G_EAST = { region: 'us-east-1', family: 'G', market: 'on-demand' } as const;

beforeAll(async () => {
  process.env.ACCOUNT_VCPU_QUOTAS = JSON.stringify([{ ...G_EAST, vcpus: 4 }]);
  stack = await startLocalStack({
    port: 0,
    endpoints: emulatorEndpoints(),
    timers: false,
    prefix: `capacity${Date.now()}`,
  });
});

afterAll(async () => {
  if (saved === undefined) delete process.env.ACCOUNT_VCPU_QUOTAS;
  else process.env.ACCOUNT_VCPU_QUOTAS = saved;
  await stack?.stop();
});

describe('the local capacity refresh', () => {
  it('names every local pool, the operator’s value where given', () => {
    const quotas = JSON.parse(stack.env.ACCOUNT_VCPU_QUOTAS ?? '[]');
    expect(quotas).toHaveLength(vcpuQuotaKeys(LOCAL_GPU_REGIONS).length);
    expect(quotas).toContainEqual({ ...G_EAST, vcpus: 4 });
    expect(quotas).toContainEqual({
      region: 'us-west-2',
      family: 'P',
      market: 'spot',
      vcpus: LOCAL_VCPU_QUOTA,
    });
  });

  it('has written every pool before the first lease, none above its quota', async () => {
    const store = new DynamoDbAdmissionStore(
      localDynamoDb(emulatorEndpoints().dynamodb).documents,
      stack.env[TABLES.admission.envVar] ?? '',
    );
    const pools = new Map((await store.pools()).map((pool) => [poolKey(pool), pool]));
    for (const quota of vcpuQuotaKeys(LOCAL_GPU_REGIONS)) {
      const pool = pools.get(poolKey({ kind: 'vcpu', ...quota }));
      expect(pool, JSON.stringify(quota)).toBeDefined();
      // Other tests' managed instances on the shared moto count as running outside admission.
      expect(pool?.limit).toBeLessThanOrEqual(
        vcpuQuotaId(quota) === vcpuQuotaId(G_EAST) ? 4 : LOCAL_VCPU_QUOTA,
      );
    }
  });
});
