import { RunInstancesCommand } from '@aws-sdk/client-ec2';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { launchTemplateName } from '../../local/bootstrap';
import { lambdaContext } from '../../local/runtime/lambda-context';
import { DynamoDbAdmissionStore } from '../../shared/adapters/dynamodb-admission-store';
import { priceCatalog } from '../../shared/catalog';
import { DEFAULT_QUOTA } from '../../shared/domain/admission/quota';
import type { Lease } from '../../shared/domain/lease';
import { LEASE_TAG, MANAGED_TAG, TENANT_TAG } from '../../shared/ports/compute';
import { TABLES } from '../../shared/resources';
import { runAdmissionPass } from '../../shared/usecases/admission/admission-pass';
import { waitingLeaseOf } from '../../shared/usecases/admission/queue';
import { awsProbe } from '../support/aws';
import { storesOf, useFreshResources } from '../support/function-env';
import { commandRecord, sqsRecord, storedLease } from '../support/leases';
import { usageCharges } from '../support/usage-records';

let env: Record<string, string>;
let handler: typeof import('../../functions/lease-worker/handler').handler;
let leases: import('../../shared/ports/lease-repository').LeaseRepository;
const aws = () => awsProbe();

beforeAll(async () => {
  env = await useFreshResources();
  ({ handler } = await import('../../functions/lease-worker/handler'));
  ({ leases } = await storesOf(env));
});

const deliver = (...records: SQSRecord[]) =>
  handler({ Records: records } satisfies SQSEvent, lambdaContext('lease-worker', 120_000));
const pendingLease = (overrides: Partial<Lease> = {}) => storedLease(leases, { gpus: 2, ...overrides });
const provision = (lease: Lease) => commandRecord('provision', lease);
const release = (lease: Lease) => commandRecord('release', lease);

/** What the gate of an earlier delivery left: the lease queued and admitted, in the real admission table. */
async function admitAsAnEarlierAttemptDid(lease: Lease): Promise<void> {
  const { documents } = await storesOf(env);
  const admission = new DynamoDbAdmissionStore(documents, env[TABLES.admission.envVar] ?? '');
  const deps = {
    catalog: priceCatalog,
    placement: { regions: ['us-east-1'] } as unknown as Parameters<typeof waitingLeaseOf>[0]['placement'],
    region: 'us-east-1',
    now: Date.now,
  };
  await admission.enqueue(waitingLeaseOf(deps, lease));
  await runAdmissionPass({ admission, catalog: priceCatalog, defaultQuota: DEFAULT_QUOTA, now: Date.now });
  expect(await admission.status(lease.leaseId)).toBe('ADMITTED');
}

describe('provisioning', () => {
  it('launches one tagged 1-GPU instance per GPU and records them', async () => {
    const lease = await pendingLease({ gpus: 2 });
    const result = await deliver(provision(lease));
    expect(result.batchItemFailures).toEqual([]);

    const running = await aws().instancesTagged(LEASE_TAG, lease.leaseId);
    expect(running).toHaveLength(2);
    for (const instance of running) {
      expect(instance.InstanceType).toBe('g5.xlarge');
      const tags = Object.fromEntries((instance.Tags ?? []).map((t) => [t.Key, t.Value]));
      expect(tags).toMatchObject({
        [MANAGED_TAG]: 'true',
        [TENANT_TAG]: 'tenant-w',
        [LEASE_TAG]: lease.leaseId,
      });
    }
    const stored = await leases.get(lease.tenantId, lease.leaseId);
    expect(stored?.status).toBe('RUNNING');
    expect(stored?.instances.map((i) => i.instanceId).sort()).toEqual(
      running.map((i) => i.InstanceId).sort(),
    );
    expect(stored?.instances[0]).toMatchObject({
      mode: 'on-demand',
      priceMicroUsdPerHour: 1_006_000,
      billedSeconds: 0,
      meteringOpen: true,
    });
  });

  it('launches once when the same provision message is delivered twice', async () => {
    const lease = await pendingLease({ gpus: 3 });
    const message = provision(lease);
    await deliver(message);
    await deliver(message);
    expect(await aws().instancesTagged(LEASE_TAG, lease.leaseId)).toHaveLength(3);
    expect((await leases.get(lease.tenantId, lease.leaseId))?.instances).toHaveLength(3);
  });

  it('launches once when duplicates arrive in one batch at the same time', async () => {
    const lease = await pendingLease({ gpus: 1 });
    const result = await deliver(provision(lease), provision(lease));
    // One runs; its twin either waits for it or is handed back for a later retry.
    expect(result.batchItemFailures.length).toBeLessThanOrEqual(1);
    await deliver(provision(lease));
    expect(await aws().instancesTagged(LEASE_TAG, lease.leaseId)).toHaveLength(1);
    expect((await leases.get(lease.tenantId, lease.leaseId))?.status).toBe('RUNNING');
  });

  it('adopts instances an interrupted attempt launched but never recorded', async () => {
    const lease = await pendingLease({ gpus: 2 });
    // An earlier attempt was admitted (nothing launches a lease admission never knew), got as far
    // as RunInstances, then died.
    await admitAsAnEarlierAttemptDid(lease);
    await aws().ec2.send(
      new RunInstancesCommand({
        LaunchTemplate: { LaunchTemplateName: launchTemplateName(env.FLEET_NAME ?? '') },
        InstanceType: 'g5.xlarge',
        MinCount: 2,
        MaxCount: 2,
        TagSpecifications: [
          {
            ResourceType: 'instance',
            Tags: [
              { Key: MANAGED_TAG, Value: 'true' },
              { Key: LEASE_TAG, Value: lease.leaseId },
              { Key: TENANT_TAG, Value: lease.tenantId },
            ],
          },
        ],
      }),
    );
    await deliver(provision(lease));
    expect(await aws().instancesTagged(LEASE_TAG, lease.leaseId)).toHaveLength(2);
    const stored = await leases.get(lease.tenantId, lease.leaseId);
    expect(stored?.status).toBe('RUNNING');
    expect(stored?.instances).toHaveLength(2);
  });

  it('puts batch work on spot, as the mode policy says', async () => {
    const lease = await pendingLease({ gpus: 1, workload: 'batch' });
    await deliver(provision(lease));
    const [instance] = await aws().instancesTagged(LEASE_TAG, lease.leaseId);
    expect(instance?.InstanceLifecycle).toBe('spot');
    expect((await leases.get(lease.tenantId, lease.leaseId))?.instances[0]?.mode).toBe('spot');
  });

  it('drops a malformed command instead of retrying it forever', async () => {
    const result = await deliver(
      sqsRecord('{"type":"provision"'),
      sqsRecord({ type: 'explode', tenantId: 'x', leaseId: 'y' }),
    );
    expect(result.batchItemFailures).toEqual([]);
  });
});

describe('releasing', () => {
  it('terminates every instance, closes each bill and marks the lease RELEASED', async () => {
    const lease = await pendingLease({ gpus: 2 });
    await deliver(provision(lease));
    await leases.transition(lease.tenantId, lease.leaseId, ['RUNNING'], 'RELEASING', Date.now(), {
      releaseRequestedAtMs: Date.now(),
    });
    await deliver(release(lease));

    expect(await aws().instancesTagged(LEASE_TAG, lease.leaseId)).toHaveLength(0);
    const terminated = await aws().instancesTagged(LEASE_TAG, lease.leaseId, ['shutting-down', 'terminated']);
    expect(terminated).toHaveLength(2);
    const stored = await leases.get(lease.tenantId, lease.leaseId);
    expect(stored?.status).toBe('RELEASED');
    for (const instance of stored?.instances ?? []) {
      expect(instance.meteringOpen).toBe(false);
      expect(instance.endedAtMs).toBe(stored?.terminatedAtMs);
      // A few seconds of life: the one-minute minimum at $1.006/h.
      expect(instance.billedSeconds).toBe(60);
      expect(instance.billedMicroUsd).toBe(16_767);
      // Its 200 GiB volume, no minimum: ceil(life) seconds at us-east-1's $0.08/GB-month,
      // 200 × seconds × 80,000 µ$ ÷ 2,592,000 s, rounded half up.
      const lifeSeconds = Math.ceil(((instance.endedAtMs ?? 0) - instance.launchedAtMs) / 1000);
      expect(instance.storageBilledSeconds).toBe(lifeSeconds);
      expect(instance.storageBilledMicroUsd).toBe(Math.round((200 * lifeSeconds * 80_000) / 2_592_000));
    }
    const usage = (await usageCharges(env.USAGE_TABLE_NAME ?? '')).filter(
      (row) => row.leaseId === lease.leaseId,
    );
    const sumOf = (dimension: string) =>
      usage.filter((row) => row.dimension === dimension).reduce((sum, row) => sum + Number(row.microUsd), 0);
    expect(sumOf('compute')).toBe(2 * 16_767);
    expect(sumOf('storage')).toBe(
      (stored?.instances ?? []).reduce((sum, instance) => sum + (instance.storageBilledMicroUsd ?? 0), 0),
    );
    expect(usage.every((row) => row.dimension === 'compute' || row.dimension === 'storage')).toBe(true);
  });

  it('bills nothing twice when the release is delivered again', async () => {
    const lease = await pendingLease({ gpus: 1 });
    await deliver(provision(lease));
    await leases.transition(lease.tenantId, lease.leaseId, ['RUNNING'], 'RELEASING', Date.now());
    await deliver(release(lease));
    const before = await leases.get(lease.tenantId, lease.leaseId);
    await deliver(release(lease));
    const after = await leases.get(lease.tenantId, lease.leaseId);
    expect(after).toEqual(before);
  });

  it('launches nothing for a lease released before it was provisioned', async () => {
    const lease = await pendingLease({ gpus: 2 });
    await leases.transition(lease.tenantId, lease.leaseId, ['PENDING'], 'RELEASING', Date.now());
    await deliver(provision(lease), release(lease));
    expect(
      await aws().instancesTagged(LEASE_TAG, lease.leaseId, [
        'pending',
        'running',
        'shutting-down',
        'terminated',
      ]),
    ).toHaveLength(0);
    expect((await leases.get(lease.tenantId, lease.leaseId))?.status).toBe('RELEASED');
  });
});
