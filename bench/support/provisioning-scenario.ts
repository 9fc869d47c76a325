/**
 * The fault-injection run of issue #8, shared by its integration test and by
 * `npm run bench -- provisioning`: provision requests through the real API
 * handler (some repeated with the same Idempotency-Key), their commands
 * delivered to the real lease worker in batches (some delivered twice, failed
 * ones redelivered as SQS would), then one reconciler run, all on the
 * emulators; leases no pool had room for wait QUEUED until the admission
 * schedule, fired past their maxWaitMinutes, fails them. EC2 is moto; the faults moto cannot produce (capacity errors,
 * throttling, a worker that dies between RunInstances and recording) are
 * injected with aws-sdk-client-mock, every other call passing through to moto.
 */
import { randomUUID } from 'node:crypto';
import {
  CreateLaunchTemplateVersionCommand,
  DescribeInstancesCommand,
  DescribeLaunchTemplatesCommand,
  DescribeLaunchTemplateVersionsCommand,
  DescribeSpotPriceHistoryCommand,
  DescribeSubnetsCommand,
  EC2Client,
  EC2ServiceException,
  type Instance,
  RunInstancesCommand,
  type RunInstancesCommandInput,
  TerminateInstancesCommand,
} from '@aws-sdk/client-ec2';
import { DeleteMessageBatchCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { APIGatewayProxyStructuredResultV2, SQSRecord } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { apiEvent } from '../../local/runtime/api-event';
import { lambdaContext } from '../../local/runtime/lambda-context';
import { scheduledEvent } from '../../local/runtime/schedules';
import { toRecord } from '../../local/runtime/sqs-poller';
import { QUEUE_TIMEOUT } from '../../shared/domain/admission/queue-timeout';
import { DEFAULT_MAX_WAIT_MINUTES } from '../../shared/domain/admission/quota';
import type { LeaseView } from '../../shared/domain/lease';
import { LEASE_TAG, TENANT_TAG } from '../../shared/ports/compute';
import { seededRandom } from './random';

/** EC2Client's own send, kept from before the mock, to reach moto. */
type RealSend = (this: EC2Client, command: unknown) => Promise<unknown>;

export interface ScenarioOptions {
  readonly requests: number;
  readonly faults: boolean;
  readonly seed: number;
}

export interface ScenarioResult {
  readonly requests: number;
  readonly leases: number;
  readonly running: number;
  readonly failed: number;
  /** Leases that are neither RUNNING nor FAILED, or FAILED without a reason: must be 0. */
  readonly unsettled: number;
  /** Live instances of the run's tenants that no RUNNING lease records, after one reconcile. */
  readonly orphansAfterReconcile: number;
  /** Leases with more live GPUs than they asked for. */
  readonly overLaunched: number;
  /** RUNNING leases with fewer live GPUs than they asked for. */
  readonly underLaunched: number;
  /** Leases waiting QUEUED after every command was delivered (no allowed pool had room), and why. */
  readonly queued: number;
  readonly queueReasons: readonly string[];
  /** Leases the admission schedule failed with QUEUE_TIMEOUT past their maxWaitMinutes. */
  readonly timedOut: number;
  /** Of those, leases with an instance recorded or live: must be 0 (they never ran, nothing billed). */
  readonly timedOutWithInstances: number;
  readonly deliveries: number;
  readonly rounds: number;
  readonly injected: { readonly capacity: number; readonly throttled: number; readonly crashes: number };
  /** Per RUNNING lease: from its creation to RUNNING. */
  readonly secondsToRunning: readonly number[];
  readonly wallSeconds: number;
}

const TYPES = ['g5.xlarge', 'g6.xlarge', 'g6e.xlarge', 'g4dn.xlarge'] as const;
const GPU_COUNTS = [1, 1, 1, 2, 4, 8] as const;
const WORKLOADS = ['training', 'inference', 'batch'] as const;
const DUPLICATE_REQUEST_SHARE = 0.1;
const DUPLICATE_DELIVERY_SHARE = 0.1;
const THROTTLE_SHARE = 0.15;
const CRASHES = 5;
const BATCH = 10;
const MAX_ROUNDS = 12;
const COMMANDS_ARN = 'arn:aws:sqs:us-east-1:000000000000:lease-commands';

const ec2Error = (code: string) =>
  new EC2ServiceException({ name: code, $fault: 'client', $metadata: {}, message: `injected ${code}` });

/** Which RunInstances calls fail, and how: a type nobody has, one empty spot zone, one empty on-demand zone. */
function capacityFault(
  input: RunInstancesCommandInput,
  region: string,
  subnetZone: string,
): string | undefined {
  if (String(input.InstanceType).startsWith('g4dn.')) return 'InsufficientInstanceCapacity';
  const spot = input.InstanceMarketOptions?.MarketType === 'spot';
  if (spot && subnetZone.endsWith('a') && region === 'us-east-1') return 'InsufficientInstanceCapacity';
  if (!spot && region === 'us-west-2' && subnetZone.endsWith('b')) return 'InsufficientInstanceCapacity';
  return undefined;
}

export async function runProvisioningScenario(
  env: Readonly<Record<string, string>>,
  options: ScenarioOptions,
): Promise<ScenarioResult> {
  const startedAt = performance.now();
  const random = seededRandom(options.seed);
  const run = randomUUID().slice(0, 8);
  const tenants = [`fault-${run}-a`, `fault-${run}-b`];
  const injected = { capacity: 0, throttled: 0, crashes: 0 };

  // Captured before mocking: faults are injected around the real calls to moto.
  const realSend = EC2Client.prototype.send as unknown as RealSend;
  const ec2 = mockClient(EC2Client);
  const passThrough = (Command: new (input: never) => unknown) =>
    ec2
      .on(Command as never)
      .callsFake((input: unknown, getClient: () => unknown) =>
        realSend.call(getClient() as EC2Client, new Command(input as never)),
      );
  for (const Command of [
    DescribeInstancesCommand,
    DescribeSubnetsCommand,
    DescribeLaunchTemplatesCommand,
    DescribeLaunchTemplateVersionsCommand,
    DescribeSpotPriceHistoryCommand,
    TerminateInstancesCommand,
    CreateLaunchTemplateVersionCommand,
  ]) {
    passThrough(Command as never);
  }
  const subnetZones = new Map<string, string>();
  const crashFor = new Set<string>();
  ec2
    .on(RunInstancesCommand)
    .callsFake(async (input: RunInstancesCommandInput, getClient: () => EC2Client) => {
      const client = getClient();
      const region = await client.config.region();
      if (options.faults) {
        let zone = subnetZones.get(String(input.SubnetId));
        if (zone === undefined) {
          const subnets = await realSend.call(
            client,
            new DescribeSubnetsCommand({ SubnetIds: [String(input.SubnetId)] }),
          );
          zone =
            (subnets as { Subnets?: { AvailabilityZone?: string }[] }).Subnets?.[0]?.AvailabilityZone ?? '';
          subnetZones.set(String(input.SubnetId), zone);
        }
        if (random() < THROTTLE_SHARE) {
          injected.throttled += 1;
          throw ec2Error('RequestLimitExceeded');
        }
        const code = capacityFault(input, region, zone);
        if (code) {
          injected.capacity += 1;
          throw ec2Error(code);
        }
      }
      const result = await realSend.call(client, new RunInstancesCommand(input));
      const leaseId = input.TagSpecifications?.[0]?.Tags?.find((t) => t.Key === LEASE_TAG)?.Value ?? '';
      if (crashFor.delete(leaseId)) {
        // The worker dies after EC2 launched, before anything is recorded.
        injected.crashes += 1;
        throw new Error('injected: worker crashed between RunInstances and recording');
      }
      return result;
    });

  try {
    const api = (await import('../../functions/api/handler')).handler;
    const worker = (await import('../../functions/lease-worker/handler')).handler;
    const reconciler = (await import('../../functions/reconciler/handler')).handler;
    const { buildPorts } = await import('../../shared/lambda/port-factory');
    const { leaseRepository } = await import('../../shared/lambda/stores');
    const { leases } = buildPorts({ leases: leaseRepository('read') }, env);

    // --- requests through the API, some repeated with the same key ---------------------
    const sent: { tenant: string; key: string; body: object }[] = [];
    const created = new Map<string, { tenant: string; leaseId: string }>();
    for (let i = 0; i < options.requests; i += 1) {
      const repeat = sent.length > 0 && random() < DUPLICATE_REQUEST_SHARE;
      const request = repeat
        ? (sent[Math.floor(random() * sent.length)] as (typeof sent)[number])
        : newRequest(random, tenants, options.seed, i);
      if (!repeat) sent.push(request);
      const result = (await api(
        apiEvent({
          routeKey: 'POST /v1/leases',
          path: '/v1/leases',
          headers: { 'content-type': 'application/json', 'idempotency-key': request.key },
          body: JSON.stringify(request.body),
          claims: { sub: 'bench', 'custom:tenant': request.tenant },
        }),
        lambdaContext('api', 29_000),
      )) as APIGatewayProxyStructuredResultV2;
      if (result.statusCode !== 202)
        throw new Error(`POST /v1/leases answered ${result.statusCode}: ${result.body}`);
      const { leaseId } = JSON.parse(result.body ?? '{}') as { leaseId: string };
      created.set(leaseId, { tenant: request.tenant, leaseId });
    }
    if (options.faults) {
      for (const leaseId of [...created.keys()].slice(0, CRASHES)) crashFor.add(leaseId);
    }

    // --- the commands, delivered in batches, some twice; failures come back ------------
    const sqs = new SQSClient({ useQueueUrlAsEndpoint: false });
    const receiveAll = async () => {
      const bodies: string[] = [];
      for (;;) {
        const received = await sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: env.LEASE_COMMANDS_QUEUE_URL,
            MaxNumberOfMessages: 10,
            WaitTimeSeconds: 0,
          }),
        );
        if (!received.Messages?.length) return bodies;
        bodies.push(...received.Messages.map((m) => m.Body ?? ''));
        // Taken, as the event source takes them: they do not come back after the visibility timeout.
        await sqs.send(
          new DeleteMessageBatchCommand({
            QueueUrl: env.LEASE_COMMANDS_QUEUE_URL,
            Entries: received.Messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle })),
          }),
        );
      }
    };
    let deliveries = 0;
    let rounds = 0;
    const deliver = async (bodies: string[]) => {
      let pending = bodies;
      for (let round = 0; pending.length > 0 && round < MAX_ROUNDS; round++) {
        rounds += 1;
        shuffle(pending, random);
        const failed: string[] = [];
        for (let start = 0; start < pending.length; start += BATCH) {
          const records: SQSRecord[] = pending
            .slice(start, start + BATCH)
            .map((body, index) =>
              toRecord({ MessageId: `m-${deliveries + index}`, Body: body }, COMMANDS_ARN, 'us-east-1'),
            );
          deliveries += records.length;
          let failures: string[];
          try {
            const result = await worker({ Records: records }, lambdaContext('lease-worker', 120_000));
            failures = result.batchItemFailures.map((f) => f.itemIdentifier);
          } catch {
            failures = records.map((r) => r.messageId); // the whole batch failed: all come back
          }
          for (const r of records) if (failures.includes(r.messageId)) failed.push(r.body);
        }
        pending = failed;
      }
    };
    const bodies = await receiveAll();
    await deliver([...bodies, ...bodies.filter(() => random() < DUPLICATE_DELIVERY_SHARE)]);
    // Start commands of leases a pass admitted from the queue meanwhile (a refusal's back-off ended),
    // and of those admitted while these run.
    for (let more = await receiveAll(); more.length > 0; more = await receiveAll()) await deliver(more);

    // --- one reconcile, then look at EC2 and the table ---------------------------------
    await reconciler(
      scheduledEvent('reconciler', Date.now(), 'us-east-1'),
      lambdaContext('reconciler', 120_000),
    );
    const storedLeases = async () => {
      const found: LeaseView[] = [];
      for (const { tenant, leaseId } of created.values()) {
        const lease = await leases.get(tenant, leaseId);
        if (lease) found.push(lease);
      }
      return found;
    };
    // --- leases no pool had room for wait QUEUED; the admission schedule past their wait fails them
    const waiting = (await storedLeases()).filter((l) => l.status === 'QUEUED');
    const admission = (await import('../../functions/admission/handler')).handler;
    const afterEveryWaitMs = Date.now() + (DEFAULT_MAX_WAIT_MINUTES + 1) * 60_000;
    await admission(
      scheduledEvent('admission', afterEveryWaitMs, 'us-east-1'),
      lambdaContext('admission', 55_000),
    );
    sqs.destroy();
    const stored = await storedLeases();
    const timedOut = stored.filter(
      (l) => l.status === 'FAILED' && l.failureReason?.startsWith(QUEUE_TIMEOUT),
    );
    const live = await liveInstancesOf(tenants, realSend);
    const byLease = new Map<string, Instance[]>();
    for (const instance of live) {
      const leaseId = instance.Tags?.find((t) => t.Key === LEASE_TAG)?.Value ?? '';
      byLease.set(leaseId, [...(byLease.get(leaseId) ?? []), instance]);
    }
    const { priceCatalog } = await import('../../shared/catalog');
    const gpusOf = (instances: readonly Instance[]) =>
      instances.reduce((sum, i) => sum + (priceCatalog.offering(String(i.InstanceType))?.gpuCount ?? 1), 0);
    const runningLeases = stored.filter((l) => l.status === 'RUNNING');
    const owned = new Set(
      runningLeases.flatMap((l) => l.instances.filter((i) => i.meteringOpen).map((i) => i.instanceId)),
    );
    return {
      requests: options.requests,
      leases: stored.length,
      running: runningLeases.length,
      failed: stored.filter((l) => l.status === 'FAILED').length,
      unsettled: stored.filter((l) => !(l.status === 'RUNNING' || (l.status === 'FAILED' && l.failureReason)))
        .length,
      orphansAfterReconcile: live.filter((i) => !owned.has(i.InstanceId ?? '')).length,
      overLaunched: stored.filter((l) => gpusOf(byLease.get(l.leaseId) ?? []) > l.gpus).length,
      underLaunched: runningLeases.filter((l) => gpusOf(byLease.get(l.leaseId) ?? []) < l.gpus).length,
      queued: waiting.length,
      queueReasons: [...new Set(waiting.map((l) => l.queue?.reason))].sort() as string[],
      timedOut: timedOut.length,
      timedOutWithInstances: timedOut.filter(
        (l) => l.instances.length > 0 || (byLease.get(l.leaseId) ?? []).length > 0,
      ).length,
      deliveries,
      rounds,
      injected,
      secondsToRunning: runningLeases.map((l) => (l.updatedAtMs - l.createdAtMs) / 1000),
      wallSeconds: (performance.now() - startedAt) / 1000,
    };
  } finally {
    ec2.restore();
  }
}

function newRequest(random: () => number, tenants: readonly string[], seed: number, index: number) {
  const gpus = GPU_COUNTS[Math.floor(random() * GPU_COUNTS.length)] as number;
  const workload = WORKLOADS[Math.floor(random() * WORKLOADS.length)] as string;
  const byModel = random() < 0.3;
  const body = {
    workload,
    gpus,
    ...(byModel
      ? { gpuModel: random() < 0.5 ? 'A10G' : 'L4' }
      : { instanceType: TYPES[Math.floor(random() * TYPES.length)] }),
    ...(random() < 0.25 ? { regions: ['us-west-2'] } : {}),
  };
  return {
    tenant: tenants[index % tenants.length] as string,
    key: `fault-${seed}-${index}-${randomUUID()}`,
    body,
  };
}

function shuffle<T>(items: T[], random: () => number): void {
  for (let i = items.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
}

/** Live instances tagged with one of the tenants, in both local GPU regions, straight from moto. */
async function liveInstancesOf(tenants: readonly string[], send: RealSend): Promise<Instance[]> {
  const found: Instance[] = [];
  for (const region of ['us-east-1', 'us-west-2']) {
    const client = new EC2Client({ region });
    let nextToken: string | undefined;
    do {
      const page = (await send.call(
        client,
        new DescribeInstancesCommand({
          Filters: [
            { Name: `tag:${TENANT_TAG}`, Values: [...tenants] },
            { Name: 'instance-state-name', Values: ['pending', 'running'] },
          ],
          NextToken: nextToken,
        }),
      )) as { Reservations?: { Instances?: Instance[] }[]; NextToken?: string };
      found.push(...(page.Reservations ?? []).flatMap((r) => r.Instances ?? []));
      nextToken = page.NextToken;
    } while (nextToken);
    client.destroy();
  }
  return found;
}
