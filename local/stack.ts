import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { CloudWatchLogsClient } from '@aws-sdk/client-cloudwatch-logs';
import { EC2Client } from '@aws-sdk/client-ec2';
import { S3Client } from '@aws-sdk/client-s3';
import { SchedulerClient } from '@aws-sdk/client-scheduler';
import { SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse } from 'aws-lambda';
import { DynamoDbLeaseRepository } from '../shared/adapters/dynamodb-lease-repository';
import { CAPACITY_REFRESH_MINUTES } from '../shared/domain/admission/fleet-capacity';
import { ADMISSION_SCHEDULE_MINUTES } from '../shared/domain/admission/queue-timeout';
import { nextAuditRunAfter } from '../shared/domain/audit/audit-month';
import { DEADLINE_DECISION_INTERVAL_MS } from '../shared/domain/deadlines/steering';
import { Clients, ec2Client, eventBridgeClient, ssmClient } from '../shared/lambda/clients';
import { BUCKETS, LEASE_EXPIRY, LOG_GROUPS, QUEUES, TABLES, TOPICS } from '../shared/resources';
import { LOCAL_GPU_REGIONS } from './bootstrap';
import { type EmulatorEndpoints, startEmulators } from './emulators';
import { prepareFunctionEnvironment } from './environment';
import { startAlertFeed } from './runtime/alert-feed';
import { probeDockerEngine } from './runtime/docker-engine';
import { type OneTimeSchedules, startOneTimeSchedules } from './runtime/expiry-schedules';
import { type GpuLoadModel, publishSimulatedGpuLoad } from './runtime/gpu-load-simulator';
import { startHttpGateway } from './runtime/http-gateway';
import { type Schedules, startSchedules } from './runtime/schedules';
import { startSqsPoller } from './runtime/sqs-poller';
import { type LocalSsmAgent, startLocalSsmAgent } from './runtime/ssm-agent';
import { LocalTokenIssuer } from './runtime/tokens';
import { type LocalWarmMachineInit, startLocalWarmMachineInit } from './runtime/warm-machine-init';
import { defineLocalWarmPool, type LocalWarmPool } from './warm-pool';

export interface LocalStackOptions {
  /** Port of the local HTTP API; 0 picks a free one. */
  readonly port: number;
  readonly region?: string;
  /** Prefix of every resource name, so stacks sharing emulators stay apart. */
  readonly prefix?: string;
  /** Emulators already running (tests share one set); started here when absent. */
  readonly endpoints?: EmulatorEndpoints;
  /** Fire scheduled functions on their timers (off in tests, which fire them on purpose). */
  readonly timers?: boolean;
  /** Print each budget alert published to the topic, as a subscriber receives it. */
  readonly printAlerts?: (text: string) => void;
  /** How busy the simulated GPUs are (the GPU load schedule publishes it every minute). @default idle */
  readonly gpuLoad?: GpuLoadModel;
  /** A warm pool to keep in the home region (GPURENT_WARM_POOL). @default none */
  readonly warmPool?: LocalWarmPool;
}

export interface LocalStack {
  readonly apiUrl: string;
  readonly token: string;
  readonly adminToken: string;
  /** The run's token issuer: benchmarks put other gateways in front of the same tokens. */
  readonly tokens: LocalTokenIssuer;
  readonly endpoints: EmulatorEndpoints;
  readonly env: Readonly<Record<string, string>>;
  readonly schedules: Schedules;
  /** Lease expiry schedules (moto stores them; this fires them when due). */
  readonly expiries: OneTimeSchedules;
  /** The stand-in of the instances' SSM agent: runs tasks' commands as child processes. */
  readonly tasks: LocalSsmAgent;
  /** The stand-in of warm machines' user data: tags running warm machines ready. */
  readonly warmInit: LocalWarmMachineInit;
  stop(): Promise<void>;
}

const LOCAL_TENANT = 'local-tenant';
const MINUTE_MS = 60_000;
/** EventBridge Scheduler fires within a minute of the time; locally a lease ends within a second. */
const EXPIRY_POLL_MS = 1_000;
/** How often the local SSM agent looks for commands sent and instances gone. */
const SSM_AGENT_POLL_MS = 250;
/**
 * How often running warm machines are looked for to play their user data.
 * A real machine's boot and pre-pulls take minutes; each look is a filtered
 * DescribeInstances that makes moto walk every instance, so a 250 ms poll
 * took a large share of moto's one process from the rest of the stack.
 */
const WARM_INIT_POLL_MS = 2_000;
/** How often the agent uploads a running attempt's checkpoint folder (changed files only). */
const CHECKPOINT_UPLOAD_MS = 2_000;
/** How often the agent sends a running attempt's new output lines (one PutLogEvents a stream with lines). */
const OUTPUT_SHIP_MS = 1_000;

/**
 * The whole system on emulators: resources from shared/resources.ts, the real
 * handlers behind a local API Gateway, an SQS event source and schedules.
 */
export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const region = options.region ?? 'us-east-1';
  const prefix = options.prefix ?? 'gpurent-local';
  const emulators = options.endpoints ? undefined : await startEmulators();
  const endpoints = options.endpoints ?? (emulators as NonNullable<typeof emulators>).endpoints;
  try {
    const env = await prepareFunctionEnvironment(endpoints, region, prefix);
    // Handlers read their configuration once, at import: set it first.
    Object.assign(process.env, env);
    const [
      api,
      worker,
      metering,
      reconciler,
      deadlineSchedule,
      budgetEvaluator,
      scalingEvaluator,
      audit,
      interruptions,
      taskEvents,
      warmPoolFiller,
      admission,
      capacityRefresh,
    ] = await Promise.all([
      import('../functions/api/handler'),
      import('../functions/lease-worker/handler'),
      import('../functions/metering/handler'),
      import('../functions/reconciler/handler'),
      import('../functions/deadline-schedule/handler'),
      import('../functions/budget-evaluator/handler'),
      import('../functions/scaling-evaluator/handler'),
      import('../functions/audit/handler'),
      import('../functions/interruption-handler/handler'),
      import('../functions/task-events/handler'),
      import('../functions/warm-pool-filler/handler'),
      import('../functions/admission/handler'),
      import('../functions/capacity-refresh/handler'),
    ]);
    if (options.warmPool) await defineLocalWarmPool(env, region, options.warmPool);
    const telemetryEc2 = new EC2Client({});
    const gpuLoad = options.gpuLoad ?? { kind: 'idle' };

    const tokens = new LocalTokenIssuer();
    const server: Server = await startHttpGateway(api.handler, tokens, options.port);
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : options.port;
    const sqs = new SQSClient({ useQueueUrlAsEndpoint: false });
    const pollers = [
      startSqsPoller(sqs, env[QUEUES.leaseCommands.envVar] ?? '', worker.handler, {
        functionName: 'gpurent-lease-worker',
        region,
        timeoutMs: 120_000,
      }),
      // Shares of a metering run that did not fit its invocation go back to the metering function.
      startSqsPoller(
        sqs,
        env[QUEUES.meteringWork.envVar] ?? '',
        async (event, context) => (await metering.handler(event, context)) as SQSBatchResponse,
        { functionName: 'gpurent-metering', region, timeoutMs: 50_000 },
      ),
      // A lease took a warm machine: the filler launches its successor.
      startSqsPoller(
        sqs,
        env[QUEUES.warmPoolFill.envVar] ?? '',
        async (event, context) => {
          await warmPoolFiller.handler(event, context);
          return undefined;
        },
        { functionName: 'gpurent-warm-pool-filler', region, timeoutMs: 60_000 },
      ),
    ];
    // EC2's events reach their queue through moto's EventBridge rules, so that queue is moto's.
    const motoSqs = new SQSClient({ endpoint: endpoints.events, useQueueUrlAsEndpoint: false });
    pollers.push(
      startSqsPoller(motoSqs, env[QUEUES.ec2Events.envVar] ?? '', interruptions.handler, {
        functionName: 'gpurent-interruption-handler',
        region,
        timeoutMs: 60_000,
      }),
    );
    // SSM's command status events reach their queue through moto's rules too.
    pollers.push(
      startSqsPoller(motoSqs, env[QUEUES.taskEvents.envVar] ?? '', taskEvents.handler, {
        functionName: 'gpurent-task-events',
        region,
        timeoutMs: 60_000,
      }),
    );
    const agentClients = new Clients();
    const workRoot = await mkdtemp(join(tmpdir(), `${prefix}-tasks-`));
    const tasks = startLocalSsmAgent({
      clients: {
        ssm: (r) => ssmClient(agentClients, r),
        ec2: (r) => ec2Client(agentClients, r),
        events: eventBridgeClient(agentClients),
        leaseMachine: (credentials) => ({
          logs: new CloudWatchLogsClient({ credentials }),
          s3: new S3Client({ endpoint: endpoints.s3, forcePathStyle: true, credentials }),
          cloudWatch: new CloudWatchClient({ credentials }),
        }),
      },
      leases: new DynamoDbLeaseRepository(agentClients.documents, env[TABLES.leases.envVar] ?? ''),
      regions: LOCAL_GPU_REGIONS,
      homeRegion: region,
      logGroupName: env[LOG_GROUPS.taskOutput.envVar] ?? '',
      checkpointBucket: env[BUCKETS.checkpoints.envVar] ?? '',
      workRoot,
      everyMs: SSM_AGENT_POLL_MS,
      checkpointEveryMs: CHECKPOINT_UPLOAD_MS,
      outputEveryMs: OUTPUT_SHIP_MS,
      docker: await probeDockerEngine(),
    });
    const warmInit = startLocalWarmMachineInit({
      ec2: (r) => ec2Client(agentClients, r),
      regions: LOCAL_GPU_REGIONS,
      everyMs: WARM_INIT_POLL_MS,
    });
    const schedules = startSchedules(
      [
        {
          name: 'gpurent-metering',
          everyMs: MINUTE_MS,
          handler: metering.handler,
          // As in AWS: the budget evaluator is metering's on-success destination.
          onSuccess: { name: 'gpurent-budget-evaluator', handler: budgetEvaluator.handler },
        },
        { name: 'gpurent-reconciler', everyMs: 5 * MINUTE_MS, handler: reconciler.handler },
        {
          name: 'gpurent-deadline-schedule',
          everyMs: DEADLINE_DECISION_INTERVAL_MS,
          handler: deadlineSchedule.handler,
        },
        { name: 'gpurent-budget-evaluator', everyMs: 5 * MINUTE_MS, handler: budgetEvaluator.handler },
        { name: 'gpurent-scaling-evaluator', everyMs: MINUTE_MS, handler: scalingEvaluator.handler },
        { name: 'gpurent-warm-pool-filler', everyMs: MINUTE_MS, handler: warmPoolFiller.handler },
        {
          name: 'gpurent-admission',
          everyMs: ADMISSION_SCHEDULE_MINUTES * MINUTE_MS,
          handler: admission.handler,
        },
        {
          name: 'gpurent-capacity-refresh',
          everyMs: CAPACITY_REFRESH_MINUTES * MINUTE_MS,
          handler: capacityRefresh.handler,
        },
        {
          // Plays the CloudWatch agent of every running instance.
          name: 'gpurent-gpu-load',
          everyMs: MINUTE_MS,
          handler: (event) =>
            publishSimulatedGpuLoad(
              // Each machine's telemetry signed with its lease's credentials, as its agent's is on AWS.
              {
                ec2: telemetryEc2,
                cloudWatchOf: (instanceId) => tasks.leaseClientsOf(instanceId)?.cloudWatch,
              },
              gpuLoad,
              Date.parse(event.time),
            ),
        },
        // Last month's audit for every tenant, on the 1st.
        { name: 'gpurent-audit', nextAtMs: nextAuditRunAfter, handler: audit.handler },
      ],
      region,
      options.timers !== false,
    );
    // Admission knows the local quotas (ACCOUNT_VCPU_QUOTAS) from the first lease on, not from the first refresh.
    await schedules.fire('gpurent-capacity-refresh');
    const schedulerClient = new SchedulerClient({});
    const expiries = startOneTimeSchedules(
      schedulerClient,
      sqs,
      env[LEASE_EXPIRY.group.envVar] ?? '',
      options.timers === false ? undefined : EXPIRY_POLL_MS,
    );
    const alertFeed = options.printAlerts
      ? await startAlertFeed(
          sqs,
          env[TOPICS.budgetAlerts.envVar] ?? '',
          `${prefix}-budget-alerts-feed`,
          options.printAlerts,
        )
      : undefined;
    return {
      apiUrl: `http://127.0.0.1:${port}`,
      token: await tokens.tenantToken(LOCAL_TENANT),
      adminToken: await tokens.adminToken(LOCAL_TENANT),
      tokens,
      endpoints,
      env,
      schedules,
      expiries,
      tasks,
      warmInit,
      async stop() {
        schedules.stop();
        expiries.stop();
        await tasks.stop();
        await warmInit.stop();
        await rm(workRoot, { recursive: true, force: true });
        await Promise.all([...pollers.map((poller) => poller.stop()), alertFeed?.stop()]);
        motoSqs.destroy();
        await new Promise((resolve) => server.close(resolve));
        sqs.destroy();
        schedulerClient.destroy();
        telemetryEc2.destroy();
        await emulators?.stop();
      },
    };
  } catch (error) {
    await emulators?.stop();
    throw error;
  }
}

/** What `npm start` shares with other tools: the aws CLI, scripts, tests. */
export async function writeLocalManifest(path: string, stack: LocalStack): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const manifest = {
    apiUrl: stack.apiUrl,
    token: stack.token,
    adminToken: stack.adminToken,
    endpoints: stack.endpoints,
  };
  await writeFile(path, `${JSON.stringify(manifest, null, 2)}\n`);
}
