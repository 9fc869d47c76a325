import {
  DescribeInstancesCommand,
  RunInstancesCommand,
  StopInstancesCommand,
  type Tag,
  TerminateInstancesCommand,
} from '@aws-sdk/client-ec2';
import { beforeAll, describe, expect, it } from 'vitest';
import { launchTemplateName } from '../../local/bootstrap';
import { lambdaContext } from '../../local/runtime/lambda-context';
import { scheduledEvent } from '../../local/runtime/schedules';
import { transitionTimeMs } from '../../shared/adapters/ec2-compute';
import { costOfRun } from '../../shared/domain/billing';
import type { Lease } from '../../shared/domain/lease';
import { WARM_POOL_TAG } from '../../shared/domain/warm-pools/pool';
import { newLeaseId } from '../../shared/ids';
import { LEASE_TAG, MANAGED_TAG, TENANT_TAG } from '../../shared/ports/compute';
import type { LeaseRepository } from '../../shared/ports/lease-repository';
import { awsProbe } from '../support/aws';
import { storesOf, useFreshResources } from '../support/function-env';
import { storedLease } from '../support/leases';
import { usageCharges } from '../support/usage-records';

let env: Record<string, string>;
let handler: typeof import('../../functions/reconciler/handler').handler;
let metering: typeof import('../../functions/metering/handler').handler;
let leases: LeaseRepository;

beforeAll(async () => {
  env = await useFreshResources();
  ({ handler } = await import('../../functions/reconciler/handler'));
  ({ handler: metering } = await import('../../functions/metering/handler'));
  ({ leases } = await storesOf(env));
});

const reconcile = () =>
  handler(scheduledEvent('reconciler', Date.now(), 'us-east-1'), lambdaContext('reconciler', 60_000));
const meter = (atMs: number) =>
  metering(scheduledEvent('metering', atMs, 'us-east-1'), lambdaContext('metering', 60_000));

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

  it('keeps a stopped warm machine and ends a started one that no lease owns', async () => {
    const warm = [{ Key: WARM_POOL_TAG, Value: 'reconciled-pool' }];
    const stopped = await launch(warm);
    const started = await launch(warm);
    await awsProbe().ec2.send(new StopInstancesCommand({ InstanceIds: [stopped] }));

    const summary = await reconcile();
    expect(summary.terminated).toBeGreaterThanOrEqual(1);
    const live = await awsProbe().instancesTagged(WARM_POOL_TAG, 'reconciled-pool', [
      'pending',
      'running',
      'stopping',
      'stopped',
    ]);
    expect(live.map((i) => i.InstanceId)).toEqual([stopped]);
    expect(started).not.toBe(stopped);
  });

  it('leaves a healthy fleet alone on the next run', async () => {
    const before = await awsProbe().instancesTagged(MANAGED_TAG, 'true');
    const summary = await reconcile();
    expect(summary).toMatchObject({ terminated: 0, adopted: 0 });
    expect(await awsProbe().instancesTagged(MANAGED_TAG, 'true')).toHaveLength(before.length);
  });

  it('closes the bill of an instance terminated behind its back at its real end, exactly once', async () => {
    const owner = await lease('RUNNING');
    const instanceId = await launch(ownedBy(owner));
    expect((await reconcile()).adopted).toBe(1);
    const [adopted] = (await leases.get(owner.tenantId, owner.leaseId))?.instances ?? [];
    expect(adopted).toMatchObject({ instanceId, meteringOpen: true });

    // Terminated outside gpurent, with no event reaching the interruption handler.
    await awsProbe().ec2.send(new TerminateInstancesCommand({ InstanceIds: [instanceId] }));
    const described = await awsProbe().ec2.send(new DescribeInstancesCommand({ InstanceIds: [instanceId] }));
    const realEnd = transitionTimeMs(described.Reservations?.[0]?.Instances?.[0]?.StateTransitionReason);
    expect(realEnd).toBeGreaterThanOrEqual(Math.floor((adopted?.launchedAtMs ?? 0) / 1000) * 1000);

    expect((await reconcile()).ended).toBe(1);
    const stamped = await leases.get(owner.tenantId, owner.leaseId);
    expect(stamped?.instances[0]).toMatchObject({ endedAtMs: realEnd, meteringOpen: true });
    // The lease lost its GPU without a warning: handled as an interruption, a replacement queued.
    expect(stamped?.status).toBe('INTERRUPTED');

    const afterEnd = (realEnd ?? 0) + 300_000;
    await meter(afterEnd);
    const closed = (await leases.get(owner.tenantId, owner.leaseId))?.instances[0];
    const launchedAtMs = adopted?.launchedAtMs ?? 0;
    expect(closed).toMatchObject({
      meteringOpen: false,
      endedAtMs: realEnd,
      billedSeconds: Math.max(60, Math.ceil(((realEnd ?? 0) - launchedAtMs) / 1000)),
      billedMicroUsd: costOfRun(adopted ?? { launchedAtMs, priceMicroUsdPerHour: 0 }, realEnd ?? 0),
    });

    const charges = async () =>
      (await usageCharges(env.USAGE_TABLE_NAME ?? '')).filter((charge) => charge.instanceId === instanceId);
    const chargesBefore = await charges();
    expect(chargesBefore.length).toBeGreaterThan(0);
    expect((await reconcile()).ended).toBe(0);
    await meter(afterEnd + 60_000);
    expect((await leases.get(owner.tenantId, owner.leaseId))?.instances[0]).toEqual(closed);
    expect(await charges()).toEqual(chargesBefore);
  });
});
