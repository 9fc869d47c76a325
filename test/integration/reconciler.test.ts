import { RunInstancesCommand, type Tag } from '@aws-sdk/client-ec2';
import { beforeAll, describe, expect, it } from 'vitest';
import { launchTemplateName } from '../../local/bootstrap';
import { lambdaContext } from '../../local/runtime/lambda-context';
import { scheduledEvent } from '../../local/runtime/schedules';
import type { Lease } from '../../shared/domain/lease';
import { newLeaseId } from '../../shared/ids';
import { LEASE_TAG, MANAGED_TAG, TENANT_TAG } from '../../shared/ports/compute';
import type { LeaseRepository } from '../../shared/ports/lease-repository';
import { awsProbe } from '../support/aws';
import { storesOf, useFreshResources } from '../support/function-env';
import { storedLease } from '../support/leases';

let env: Record<string, string>;
let handler: typeof import('../../functions/reconciler/handler').handler;
let leases: LeaseRepository;

beforeAll(async () => {
  env = await useFreshResources();
  ({ handler } = await import('../../functions/reconciler/handler'));
  ({ leases } = await storesOf(env));
});

const reconcile = () =>
  handler(scheduledEvent('reconciler', Date.now(), 'us-east-1'), lambdaContext('reconciler', 60_000));

async function launch(tags: Tag[]): Promise<string> {
  const result = await awsProbe().ec2.send(
    new RunInstancesCommand({
      LaunchTemplate: { LaunchTemplateName: launchTemplateName(env.FLEET_NAME ?? '') },
      InstanceType: 'g5.xlarge',
      MinCount: 1,
      MaxCount: 1,
      TagSpecifications: [{ ResourceType: 'instance', Tags: [{ Key: MANAGED_TAG, Value: 'true' }, ...tags] }],
    }),
  );
  return result.Instances?.[0]?.InstanceId ?? '';
}

const lease = (status: Lease['status']) => storedLease(leases, { tenantId: 'tenant-r', status });

const ownedBy = (owner: Lease) => [
  { Key: LEASE_TAG, Value: owner.leaseId },
  { Key: TENANT_TAG, Value: owner.tenantId },
];

async function isLive(instanceId: string): Promise<boolean> {
  const live = await awsProbe().instancesTagged(MANAGED_TAG, 'true');
  return live.some((i) => i.InstanceId === instanceId);
}

describe('reconciler', () => {
  it('ends instances of no lease, of an unknown lease and of an ended lease; adopts strays of a running one', async () => {
    const running = await lease('RUNNING');
    const released = await lease('RELEASED');
    const untagged = await launch([]);
    const unknown = await launch([
      { Key: LEASE_TAG, Value: newLeaseId(Date.now()) },
      { Key: TENANT_TAG, Value: 'tenant-r' },
    ]);
    const ofReleased = await launch(ownedBy(released));
    const stray = await launch(ownedBy(running));

    const summary = await reconcile();
    expect(summary.terminated).toBeGreaterThanOrEqual(3);
    expect(summary.adopted).toBe(1);

    expect(await isLive(untagged)).toBe(false);
    expect(await isLive(unknown)).toBe(false);
    expect(await isLive(ofReleased)).toBe(false);
    expect(await isLive(stray)).toBe(true);
    const adopted = (await leases.get(running.tenantId, running.leaseId))?.instances ?? [];
    expect(adopted.map((i) => [i.instanceId, i.meteringOpen, i.mode])).toEqual([[stray, true, 'on-demand']]);
  });

  it('leaves a healthy fleet alone on the next run', async () => {
    const before = await awsProbe().instancesTagged(MANAGED_TAG, 'true');
    const summary = await reconcile();
    expect(summary).toMatchObject({ terminated: 0, adopted: 0 });
    expect(await awsProbe().instancesTagged(MANAGED_TAG, 'true')).toHaveLength(before.length);
  });
});
