import { mkdir, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import { dirname } from 'node:path';
import { SQSClient } from '@aws-sdk/client-sqs';
import { QUEUES } from '../shared/resources';
import { type EmulatorEndpoints, startEmulators } from './emulators';
import { prepareFunctionEnvironment } from './environment';
import { startHttpGateway } from './runtime/http-gateway';
import { type Schedules, startSchedules } from './runtime/schedules';
import { startSqsPoller } from './runtime/sqs-poller';
import { LocalTokenIssuer } from './runtime/tokens';

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
}

export interface LocalStack {
  readonly apiUrl: string;
  readonly token: string;
  readonly adminToken: string;
  readonly endpoints: EmulatorEndpoints;
  readonly env: Readonly<Record<string, string>>;
  readonly schedules: Schedules;
  stop(): Promise<void>;
}

const LOCAL_TENANT = 'local-tenant';
const MINUTE_MS = 60_000;

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
    const [api, worker, metering, reconciler, interruptions] = await Promise.all([
      import('../functions/api/handler'),
      import('../functions/lease-worker/handler'),
      import('../functions/metering/handler'),
      import('../functions/reconciler/handler'),
      import('../functions/interruption-handler/handler'),
    ]);

    const tokens = new LocalTokenIssuer();
    const server: Server = await startHttpGateway(api.handler, tokens, options.port);
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : options.port;
    const sqs = new SQSClient({ useQueueUrlAsEndpoint: false });
    const poller = startSqsPoller(sqs, env[QUEUES.leaseCommands.envVar] ?? '', worker.handler, {
      functionName: 'gpurent-lease-worker',
      region,
      timeoutMs: 120_000,
    });
    // EC2's events reach their queue through moto's EventBridge rules, so that queue is moto's.
    const motoSqs = new SQSClient({ endpoint: endpoints.events, useQueueUrlAsEndpoint: false });
    const ec2EventsPoller = startSqsPoller(
      motoSqs,
      env[QUEUES.ec2Events.envVar] ?? '',
      interruptions.handler,
      {
        functionName: 'gpurent-interruption-handler',
        region,
        timeoutMs: 60_000,
      },
    );
    const schedules = startSchedules(
      [
        { name: 'gpurent-metering', everyMs: MINUTE_MS, handler: metering.handler },
        { name: 'gpurent-reconciler', everyMs: 5 * MINUTE_MS, handler: reconciler.handler },
      ],
      region,
      options.timers !== false,
    );
    return {
      apiUrl: `http://127.0.0.1:${port}`,
      token: await tokens.issue('local-user', { 'custom:tenant': LOCAL_TENANT }),
      adminToken: await tokens.issue('local-admin', {
        'custom:tenant': LOCAL_TENANT,
        'cognito:groups': ['admin'],
      }),
      endpoints,
      env,
      schedules,
      async stop() {
        schedules.stop();
        await poller.stop();
        await ec2EventsPoller.stop();
        motoSqs.destroy();
        await new Promise((resolve) => server.close(resolve));
        sqs.destroy();
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
