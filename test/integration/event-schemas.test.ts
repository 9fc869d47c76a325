import {
  DescribeInstancesCommand,
  EC2Client,
  EC2ServiceException,
  RunInstancesCommand,
  TerminateInstancesCommand,
} from '@aws-sdk/client-ec2';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeAll, describe, expect, it } from 'vitest';
import { lambdaContext } from '../../local/runtime/lambda-context';
import { scheduledEvent } from '../../local/runtime/schedules';
import { DOMAIN_EVENT_TYPES } from '../../shared/events/registry';
import { MANAGED_TAG } from '../../shared/ports/compute';
import { awsProbe } from '../support/aws';
import { emulatorEndpoints } from '../support/emulators';
import { integratorValidator } from '../support/event-schemas';
import { type ReceivedEvent, subscribeToDomainEvents } from '../support/events';
import { type Harness, startHarness } from '../support/harness';
import { commandRecord, sqsRecord } from '../support/leases';

let harness: Harness;
let integrator: Awaited<ReturnType<typeof subscribeToDomainEvents>>;

beforeAll(async () => {
  harness = await startHarness();
  integrator = await subscribeToDomainEvents(emulatorEndpoints().events, harness.env.EVENT_BUS_NAME ?? '');
});

const worker = async () => (await import('../../functions/lease-worker/handler')).handler;

/** Drives the real handlers through every kind of fact the control plane publishes. */
async function publishEveryEventType(): Promise<ReceivedEvent[]> {
  const tenant = 'tenant-schemas';
  const { call, runningLease, env } = harness;
  // LeaseRequested, LeaseRunning, LeaseReleased
  await call(tenant, 'PUT /v1/budgets/{name}', {
    params: { name: 'tiny' },
    body: { monthlyLimitUsd: 0.000001, project: 'ml', action: 'stop-interruptible', thresholds: [100] },
  });
  const batch = await runningLease(tenant, { workload: 'batch', gpus: 1, project: 'ml', mode: 'on-demand' });
  const onDemand = await runningLease(tenant, { workload: 'training', gpus: 1 });
  await call(tenant, 'DELETE /v1/leases/{id}', { params: { id: onDemand.leaseId } });
  await (await worker())(
    { Records: [sqsRecord({ type: 'release', tenantId: tenant, leaseId: onDemand.leaseId })] },
    lambdaContext('lease-worker', 60_000),
  );
  // BudgetThresholdCrossed, BudgetActionTaken (the batch lease is released)
  await harness.tickAndEvaluate((batch.instances[0]?.launchedAtMs ?? 0) + 60_000);
  // OrphanInstanceTerminated: a managed instance no lease owns
  await awsProbe().ec2.send(
    new RunInstancesCommand({
      LaunchTemplate: { LaunchTemplateId: env.LAUNCH_TEMPLATE_ID },
      InstanceType: 'g5.xlarge',
      MinCount: 1,
      MaxCount: 1,
      TagSpecifications: [{ ResourceType: 'instance', Tags: [{ Key: MANAGED_TAG, Value: 'true' }] }],
    }),
  );
  const reconciler = (await import('../../functions/reconciler/handler')).handler;
  await reconciler(
    scheduledEvent('reconciler', Date.now(), 'us-east-1'),
    lambdaContext('reconciler', 60_000),
  );
  // LeaseQueued: moto always has capacity, so EC2 refuses launches through aws-sdk-client-mock here.
  const ec2 = mockClient(EC2Client);
  try {
    ec2.on(DescribeInstancesCommand).resolves({ Reservations: [] });
    ec2.on(TerminateInstancesCommand).resolves({});
    ec2.on(RunInstancesCommand).rejects(
      new EC2ServiceException({
        name: 'InsufficientInstanceCapacity',
        $fault: 'server',
        $metadata: {},
        message: 'injected',
      }),
    );
    const created = await call(tenant, 'POST /v1/leases', {
      body: { workload: 'inference', gpus: 1, maxWaitMinutes: 1 },
    });
    const lease = { tenantId: tenant, leaseId: created.body.leaseId } as never;
    await (await worker())(
      { Records: [commandRecord('provision', lease)] },
      lambdaContext('lease-worker', 60_000),
    );
  } finally {
    ec2.restore();
  }
  // LeaseQueueTimedOut and LeaseFailed: the scheduled pass past the queued lease's one minute.
  await harness.admissionPass(Date.now() + 2 * 60_000);
  return integrator.drain();
}

describe('published domain events', () => {
  it('each validates against its committed JSON Schema, and every lease and budget event is among them', async () => {
    const received = await publishEveryEventType();
    const validate = integratorValidator();
    const invalid = received
      .map((event) => ({ type: event['detail-type'], errors: validate(event) }))
      .filter((result) => result.errors.length > 0);
    expect(invalid).toEqual([]);
    // The lease and budget events are produced here; scaling, GPU health, audit and interruption events
    // by their own integration tests. The publisher validates every event against the registry either way.
    const produced = new Set(received.map((event) => event['detail-type']));
    expect([...produced].every((type) => (DOMAIN_EVENT_TYPES as string[]).includes(type))).toBe(true);
    expect([...produced].sort()).toEqual(
      [
        'LeaseRequested',
        'LeaseRunning',
        'LeaseReleased',
        'LeaseQueued',
        'LeaseQueueTimedOut',
        'LeaseFailed',
        'OrphanInstanceTerminated',
        'BudgetThresholdCrossed',
        'BudgetActionTaken',
      ].sort(),
    );
    const ids = received.map((event) => event.detail.eventId);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
