import { DescribeInstancesCommand, EC2Client } from '@aws-sdk/client-ec2';
import { DeleteMessageCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSRecord } from 'aws-lambda';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { putEc2Event, putSpotWarning } from '../../local/ec2-events';
import { lambdaContext } from '../../local/runtime/lambda-context';
import { EC2_EVENT_TYPES } from '../../shared/domain/ec2-events';
import type { Lease } from '../../shared/domain/lease';
import type { LeaseCommand } from '../../shared/ports/lease-commands';
import type { LeaseRepository } from '../../shared/ports/lease-repository';
import { awsProbe } from '../support/aws';
import { emulatorEndpoints } from '../support/emulators';
import { storesOf, useFreshResources } from '../support/function-env';
import { commandRecord, sqsRecord, storedLease } from '../support/leases';

let env: Record<string, string>;
let worker: typeof import('../../functions/lease-worker/handler').handler;
let interruptions: typeof import('../../functions/interruption-handler/handler').handler;
let leases: LeaseRepository;
let motoSqs: SQSClient;

beforeAll(async () => {
  env = await useFreshResources();
  ({ handler: worker } = await import('../../functions/lease-worker/handler'));
  ({ handler: interruptions } = await import('../../functions/interruption-handler/handler'));
  ({ leases } = await storesOf(env));
  motoSqs = new SQSClient({ endpoint: emulatorEndpoints().events, useQueueUrlAsEndpoint: false });
});

const RECLAIM_MS = 120_000;
/**
 * moto answers more slowly as the shared emulators fill up with the whole suite's
 * instances, rules and queues; these tests run late in it.
 */
const LATE_IN_SUITE_TIMEOUT_MS = 180_000;

/**
 * The handler's clock two minutes on: moto stamps events with its own clock
 * (it ignores PutEvents' Time), so instead of backdating the warning the
 * handler is run at the moment AWS takes the instance, and the replacement is
 * due at once. Only Date is faked; timers stay real.
 */
function atReclaimTime() {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + RECLAIM_MS });
}
afterEach(async () => {
  vi.useRealTimers();
  // Events a test left undelivered (a failure midway) must not reach the next one.
  await drainEc2Events();
});

/** Every EC2 event still on the queue, taken off unhandled. */
async function drainEc2Events(): Promise<void> {
  for (;;) {
    const received = await motoSqs.send(
      new ReceiveMessageCommand({ QueueUrl: env.EC2_EVENTS_QUEUE_URL, MaxNumberOfMessages: 10 }),
    );
    const messages = received.Messages ?? [];
    if (messages.length === 0) return;
    await Promise.all(
      messages.map((m) =>
        motoSqs.send(
          new DeleteMessageCommand({ QueueUrl: env.EC2_EVENTS_QUEUE_URL, ReceiptHandle: m.ReceiptHandle }),
        ),
      ),
    );
  }
}

/** What the rule and the queue delivered (moto's SQS), handed to the handler as the event source would. */
async function deliverEc2Events(): Promise<number> {
  const records: SQSRecord[] = [];
  for (let polls = 0; polls < 5 && records.length === 0; polls += 1) {
    const received = await motoSqs.send(
      new ReceiveMessageCommand({
        QueueUrl: env.EC2_EVENTS_QUEUE_URL,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: 1,
      }),
    );
    records.push(...(received.Messages ?? []).map((m) => sqsRecord(m.Body ?? '')));
  }
  const result = await interruptions({ Records: records }, lambdaContext('interruption-handler', 60_000));
  expect(result.batchItemFailures).toEqual([]);
  return records.length;
}

/** The replace command the handler queued (the commands queue is fauxqs). */
async function queuedReplace(lease: Lease): Promise<LeaseCommand> {
  const bodies = await awsProbe().receiveAll(env.LEASE_COMMANDS_QUEUE_URL ?? '');
  const commands = bodies.map((body) => JSON.parse(body) as LeaseCommand);
  const replace = commands.find((c) => c.type === 'replace' && c.leaseId === lease.leaseId);
  expect(replace).toBeDefined();
  return replace as LeaseCommand;
}

async function instanceIn(region: string, instanceId: string) {
  const result = await new EC2Client({ region }).send(
    new DescribeInstancesCommand({ InstanceIds: [instanceId] }),
  );
  return result.Reservations?.[0]?.Instances?.[0];
}

describe('a spot interruption, through the real rule, queue and handler', {
  timeout: LATE_IN_SUITE_TIMEOUT_MS,
}, () => {
  it('interrupts the lease, ends the warned instance and its bill itself, and replaces it in the next spot pool', async () => {
    await awsProbe().purge(env.LEASE_COMMANDS_QUEUE_URL ?? '');
    const lease = await storedLease(leases, {
      tenantId: 'tenant-spot',
      workload: 'batch',
      regions: ['us-west-2'],
    });
    await worker({ Records: [commandRecord('provision', lease)] }, lambdaContext('lease-worker', 60_000));
    const [first] = (await leases.get(lease.tenantId, lease.leaseId))?.instances ?? [];
    expect(first).toMatchObject({ mode: 'spot', region: 'us-west-2', zone: 'us-west-2a' });

    // Warned in us-west-2: its rule forwards to the home region's bus, then to the queue.
    const before = Math.floor(Date.now() / 1000) * 1000;
    await putSpotWarning(emulatorEndpoints().events, 'us-west-2', first?.instanceId ?? '');
    atReclaimTime();
    expect(await deliverEc2Events()).toBeGreaterThan(0);
    vi.useRealTimers();
    const interrupted = await leases.get(lease.tenantId, lease.leaseId);
    expect(interrupted?.status).toBe('INTERRUPTED');
    const warnedAtMs = interrupted?.instances[0]?.interruptedAtMs ?? 0;
    expect(warnedAtMs).toBeGreaterThanOrEqual(before);

    // The replacement: the reclaimed zone sits out its back-off, so the next spot pool.
    const replace = await queuedReplace(lease);
    expect(replace).toMatchObject({ type: 'replace', instanceId: first?.instanceId });
    const replaceFrom = Math.floor(Date.now() / 1000) * 1000;
    await worker({ Records: [sqsRecord(replace)] }, lambdaContext('lease-worker', 60_000));
    const replaceTo = Date.now();
    const replaced = await leases.get(lease.tenantId, lease.leaseId);
    expect(replaced?.status).toBe('RUNNING');
    expect(replaced?.placement).toMatchObject({ mode: 'spot', zone: 'us-west-2b' });
    expect(replaced?.placement?.reason).toMatch(/^spot reclaimed in us-west-2a; resuming on spot us-west-2b/);
    const second = replaced?.instances.find((i) => i.instanceId !== first?.instanceId);
    expect((await instanceIn('us-west-2', second?.instanceId ?? ''))?.State?.Name).toBe('running');

    // gpurent ended the warned instance itself before the replacement launched: its bill ends there.
    const retired = replaced?.instances.find((i) => i.instanceId === first?.instanceId);
    expect(['shutting-down', 'terminated']).toContain(
      (await instanceIn('us-west-2', first?.instanceId ?? ''))?.State?.Name,
    );
    const endedAtMs = retired?.endedAtMs ?? 0;
    expect(retired?.meteringOpen).toBe(false);
    expect(endedAtMs).toBeGreaterThanOrEqual(replaceFrom);
    expect(endedAtMs).toBeLessThanOrEqual(Math.min(replaceTo, warnedAtMs + RECLAIM_MS));
    expect(retired?.billedSeconds).toBe(
      Math.max(60, Math.ceil((endedAtMs - (first?.launchedAtMs ?? 0)) / 1000)),
    );

    // AWS's own state-change event, when it comes, bills nothing more.
    await putEc2Event(emulatorEndpoints().events, 'us-west-2', EC2_EVENT_TYPES.stateChange, {
      'instance-id': first?.instanceId ?? '',
      state: 'terminated',
    });
    await deliverEc2Events();
    const closed = (await leases.get(lease.tenantId, lease.leaseId))?.instances.find(
      (i) => i.instanceId === first?.instanceId,
    );
    expect(closed).toMatchObject({ endedAtMs, billedSeconds: retired?.billedSeconds, meteringOpen: false });
  });

  it('changes nothing when the same warning arrives again', async () => {
    await awsProbe().purge(env.LEASE_COMMANDS_QUEUE_URL ?? '');
    const lease = await storedLease(leases, {
      tenantId: 'tenant-spot',
      workload: 'batch',
      instanceType: 'g6.xlarge',
    });
    await worker({ Records: [commandRecord('provision', lease)] }, lambdaContext('lease-worker', 60_000));
    const [instance] = (await leases.get(lease.tenantId, lease.leaseId))?.instances ?? [];
    await putSpotWarning(emulatorEndpoints().events, 'us-east-1', instance?.instanceId ?? '');
    await putSpotWarning(emulatorEndpoints().events, 'us-east-1', instance?.instanceId ?? '');
    atReclaimTime();
    expect(await deliverEc2Events()).toBe(2);
    vi.useRealTimers();
    const commands = (await awsProbe().receiveAll(env.LEASE_COMMANDS_QUEUE_URL ?? '')).filter((b) =>
      b.includes(lease.leaseId),
    );
    expect(commands).toHaveLength(1);
  });

  it('confirms RUNNING from the state-change event for a lease whose worker died before marking it', async () => {
    const lease = await storedLease(leases, { tenantId: 'tenant-spot' });
    await worker({ Records: [commandRecord('provision', lease)] }, lambdaContext('lease-worker', 60_000));
    const [instance] = (await leases.get(lease.tenantId, lease.leaseId))?.instances ?? [];
    // As if the worker had recorded the instance and died: back to PENDING.
    await leases.transition(lease.tenantId, lease.leaseId, ['RUNNING'], 'PENDING', Date.now());
    await putEc2Event(emulatorEndpoints().events, 'us-east-1', EC2_EVENT_TYPES.stateChange, {
      'instance-id': instance?.instanceId ?? '',
      state: 'running',
    });
    await deliverEc2Events();
    const confirmed = await leases.get(lease.tenantId, lease.leaseId);
    expect(confirmed?.status).toBe('RUNNING');
    expect(confirmed?.instances[0]?.runningConfirmedAtMs).toBeGreaterThan(0);
    expect(confirmed?.placement?.reason).toMatch(/^confirmed by EC2's state-change event/);
  });
});
