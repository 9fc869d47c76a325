/**
 * The lease API under concurrent load (issue #48), on the local stack as
 * `npm start` runs it (timers on, every worker in the same process):
 * - **floor**: the same creates against a bare create behind the same local
 *   gateway (validation, idempotency and the lease item only, on the same
 *   tables), before the stack's workers have anything to do;
 * - **creates**: CREATES creates, each with a fresh Idempotency-Key, from
 *   CLIENTS concurrent clients; then REPLAYS replays of one key; then lists;
 * - **with backlog**: the same creates against a stack that already holds
 *   BACKLOG open and BACKLOG queued leases (another tenant's, written straight
 *   to the tables through the real adapters).
 * The clients run in a worker thread (their own event loop on the second
 * core), so the stack's event loop is the stack's. Every AWS SDK call the
 * process makes is recorded with the function it was made for, so the calls
 * per request and the workers' calls per lease are counted, not guessed.
 */
import '../local/runtime/powertools-env';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { IdempotencyConfig, makeIdempotent } from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { json, parseJsonBody, tenantOf, validate } from '../functions/api/http';
import { createLeaseBody } from '../functions/api/routes/leases';
import { startHttpGateway } from '../local/runtime/http-gateway';
import type { LocalTokenIssuer } from '../local/runtime/tokens';
import { type LocalStack, startLocalStack } from '../local/stack';
import { DynamoDbAdmissionStore } from '../shared/adapters/dynamodb-admission-store';
import { DynamoDbLeaseRepository } from '../shared/adapters/dynamodb-lease-repository';
import { mapWithConcurrency } from '../shared/concurrency';
import { MAX_REQUESTS_PER_SECOND, MAX_WAITING_LEASES_CAP } from '../shared/domain/tenant-limits';
import { Clients } from '../shared/lambda/clients';
import { EVENT_BUS, TABLES } from '../shared/resources';
import { storedLease } from '../test/support/leases';
import type { BenchmarkResult } from './support/benchmark';
import { measureGateGrowth } from './support/gate-growth';
import {
  OUTSIDE_FUNCTIONS,
  recordSdkCalls,
  type SdkCall,
  type SdkCallRecorder,
  tallyCalls,
} from './support/sdk-calls';
import { percentile, round } from './support/stats';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

const CLIENTS = Number(process.env.LOAD_CLIENTS ?? 8);
const CREATES = Number(process.env.LOAD_CREATES ?? 500);
const REPLAYS = 200;
const LISTS = 100;
const BACKLOG = Number(process.env.LOAD_BACKLOG ?? 2000);
/** As autocannon's default: a request unanswered after this counts as a time-out. */
const TIMEOUT_MS = 10_000;
const LOAD_TENANT = 'load-tenant';
const BACKLOG_TENANT = 'backlog-tenant';
const FLOOR_TENANT = 'floor-tenant';

interface RequestSpec {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body?: unknown;
  readonly idempotencyKey?: string;
}
interface PhaseOutcome {
  readonly latenciesMs: number[];
  readonly statuses: number[];
  readonly bodies: string[];
  readonly timeouts: number;
  readonly seconds: number;
}

/** The clients: fetch from a worker thread, CLIENTS requests in flight, each with a time-out. */
const CLIENT_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const { baseUrl, token, requests, clients, timeoutMs, keepBodies } = workerData;
(async () => {
  const latenciesMs = [], statuses = [], bodies = [];
  let next = 0, timeouts = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: clients }, async () => {
    while (next < requests.length) {
      const request = requests[next++];
      const t0 = performance.now();
      try {
        const response = await fetch(baseUrl + request.path, {
          method: request.method,
          signal: AbortSignal.timeout(timeoutMs),
          headers: {
            authorization: 'Bearer ' + token,
            ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
            ...(request.idempotencyKey ? { 'idempotency-key': request.idempotencyKey } : {}),
          },
          body: request.body === undefined ? undefined : JSON.stringify(request.body),
        });
        const text = await response.text();
        latenciesMs.push(performance.now() - t0);
        statuses.push(response.status);
        if (keepBodies) bodies.push(text);
      } catch {
        timeouts += 1;
      }
    }
  }));
  parentPort.postMessage({ latenciesMs, statuses, bodies, timeouts, seconds: (performance.now() - started) / 1000 });
})();
`;

function drive(baseUrl: string, token: string, requests: readonly RequestSpec[], keepBodies = false) {
  return new Promise<PhaseOutcome>((resolve, reject) => {
    const worker = new Worker(CLIENT_CODE, {
      eval: true,
      workerData: { baseUrl, token, requests, clients: CLIENTS, timeoutMs: TIMEOUT_MS, keepBodies },
    });
    worker.once('message', (outcome: PhaseOutcome) => {
      resolve(outcome);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

const creates = (run: string, count: number): RequestSpec[] =>
  Array.from({ length: count }, (_, i) => ({
    method: 'POST',
    path: '/v1/leases',
    body: { workload: 'training', gpus: 1 },
    idempotencyKey: `load-${run}-${i}`,
  }));

interface PhaseFigures {
  readonly requests: number;
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly timeouts: number;
  readonly non2xx: number;
}

function figuresOf(outcome: PhaseOutcome, requests: number): PhaseFigures {
  return {
    requests,
    requestsPerSecond: round(requests / outcome.seconds, 1),
    p50Ms: round(percentile(outcome.latenciesMs, 0.5), 0),
    p99Ms: round(percentile(outcome.latenciesMs, 0.99), 0),
    timeouts: outcome.timeouts,
    non2xx: outcome.statuses.filter((status) => status < 200 || status >= 300).length,
  };
}

/** Mean milliseconds of each operation one function called over a phase. */
function meanMsOf(calls: readonly SdkCall[], functionName: string): Record<string, number> {
  const ops = tallyCalls(calls)[functionName] ?? {};
  return Object.fromEntries(
    Object.entries(ops)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([operation, { count, ms }]) => [operation, round(ms / count, 0)]),
  );
}

/**
 * What one PutEvents to moto's bus costs while the stack is idle (median of
 * 20): the floor under the API's LeaseRequested publish, against what it
 * costs while moto also serves the workers and the stand-ins of the machines.
 */
async function idlePutEvents(): Promise<number> {
  const client = new EventBridgeClient({});
  const times: number[] = [];
  for (let i = 0; i < 20; i++) {
    const started = performance.now();
    await client.send(
      new PutEventsCommand({
        Entries: [
          {
            EventBusName: process.env[EVENT_BUS.envVar],
            Source: 'gpurent.bench',
            DetailType: 'LoadProbe',
            Detail: '{}',
          },
        ],
      }),
    );
    times.push(performance.now() - started);
  }
  client.destroy();
  return round(percentile(times, 0.5), 1);
}

/** Seconds each function (and the stand-ins) waited on each service over a phase: where the time went. */
function busyMsByService(calls: readonly SdkCall[]): Record<string, Record<string, number>> {
  const byFunction: Record<string, Record<string, number>> = {};
  for (const call of calls) {
    const service = call.operation.split('.')[0] ?? call.operation;
    const services = byFunction[call.functionName] ?? {};
    byFunction[call.functionName] = services;
    services[service] = round((services[service] ?? 0) + call.ms / 1000, 1);
  }
  return byFunction;
}

/** Calls per request of one function, by operation, over a phase. */
function callsPer(calls: readonly SdkCall[], functionName: string, per: number): Record<string, number> {
  const ops = tallyCalls(calls)[functionName] ?? {};
  return Object.fromEntries(
    Object.entries(ops)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([operation, { count }]) => [operation, round(count / per, 2)]),
  );
}
const total = (byOperation: Record<string, number>) =>
  round(
    Object.values(byOperation).reduce((sum, count) => sum + count, 0),
    2,
  );

/** The bare create: what every create must do and nothing else, behind the same gateway. */
async function startFloor(tokens: LocalTokenIssuer) {
  const clients = new Clients();
  const table = process.env[TABLES.leases.envVar] ?? '';
  const leases = new DynamoDbLeaseRepository(clients.documents, table);
  const createOnce = makeIdempotent(
    async (input: { tenantId: string; idempotencyKey: string; request: unknown }) => {
      const lease = await storedLease(leases, { tenantId: input.tenantId });
      return { leaseId: lease.leaseId, status: lease.status };
    },
    {
      persistenceStore: new DynamoDBPersistenceLayer({
        tableName: process.env[TABLES.idempotency.envVar] ?? '',
        awsSdkV3Client: clients.dynamoDb,
      }),
      config: new IdempotencyConfig({
        eventKeyJmesPath: '[tenantId, idempotencyKey]',
        payloadValidationJmesPath: 'request',
      }),
    },
  );
  return startHttpGateway(
    async (event) => {
      const body = validate(createLeaseBody, parseJsonBody(event), 'body');
      const tenantId = tenantOf(event);
      const created = await createOnce({
        tenantId,
        idempotencyKey: event.headers['idempotency-key'] ?? '',
        request: body,
      });
      return json(202, created);
    },
    tokens,
    0,
  );
}

/** BACKLOG open and BACKLOG queued leases of another tenant, through the real adapters. */
async function seedBacklog(): Promise<void> {
  const clients = new Clients();
  const leases = new DynamoDbLeaseRepository(clients.documents, process.env[TABLES.leases.envVar] ?? '');
  const admission = new DynamoDbAdmissionStore(clients.documents, process.env[TABLES.admission.envVar] ?? '');
  // A quota none of the queued leases fits under: they stay queued, ahead of every new lease.
  await admission.putQuota(BACKLOG_TENANT, {
    maxGpus: 0,
    maxHourlyMicroUsd: 0,
    maxGpusByMode: {},
    weight: 1,
  });
  const now = Date.now();
  await mapWithConcurrency(
    Array.from({ length: 2 * BACKLOG }, (_, i) => i),
    16,
    async (i) => {
      const queued = i >= BACKLOG;
      const { leaseId } = await storedLease(leases, {
        tenantId: BACKLOG_TENANT,
        status: queued ? 'QUEUED' : 'RUNNING',
        createdAtMs: now - 2 * BACKLOG + i,
      });
      if (queued) {
        await admission.enqueue({
          leaseId,
          tenantId: BACKLOG_TENANT,
          workload: 'training',
          gpus: 1,
          candidates: [
            {
              region: 'us-east-1',
              instanceType: 'g5.xlarge',
              instances: 1,
              mode: 'on-demand',
              hourlyMicroUsd: 1_006_000,
            },
          ],
          priority: 500,
          queuedAtMs: now - BACKLOG + i,
          maxWaitMinutes: 24 * 60,
        });
      }
    },
  );
}

/**
 * A token of a tenant of the load, as `gpurent login --local --tenant` gets
 * one, with the tenant's limits raised by an admin as far as they go: the load
 * is one tenant's, like a platform team's CI, and the defaults (20 requests a
 * second, 100 leases waiting to start) would answer most of it 429 before it
 * reached the create (issue #41).
 */
async function mintToken(stack: LocalStack, tenant = LOAD_TENANT): Promise<string> {
  const asAdmin = { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' };
  const limits = await fetch(`${stack.apiUrl}/v1/admin/tenants/${tenant}/limits`, {
    method: 'PUT',
    headers: asAdmin,
    body: JSON.stringify({
      requestsPerSecond: MAX_REQUESTS_PER_SECOND,
      maxWaitingLeases: MAX_WAITING_LEASES_CAP,
    }),
  });
  if (!limits.ok)
    throw new Error(`raising the load tenant's limits: ${limits.status} ${await limits.text()}`);
  const minted = await fetch(`${stack.apiUrl}/local/tokens`, {
    method: 'POST',
    headers: asAdmin,
    body: JSON.stringify({ tenant }),
  });
  return ((await minted.json()) as { token: string }).token;
}

/** The plain phase: the floor, then the stack's creates, replays, lists and gets, on one fresh stack. */
async function plainPhase(recorder: SdkCallRecorder, stack: LocalStack) {
  const token = await mintToken(stack);
  const runId = String(Date.now());
  const idlePutEventsMs = await idlePutEvents();

  // The floor, before any lease of the stack's exists.
  const floorServer = await startFloor(stack.tokens);
  const floorAddress = floorServer.address();
  const floorUrl = `http://127.0.0.1:${typeof floorAddress === 'object' && floorAddress ? floorAddress.port : 0}`;
  recorder.take();
  // A tenant of its own: the floor's leases stay PENDING (nothing provisions them) and would fill
  // the load tenant's waiting leases before its first create.
  const floor = await drive(
    floorUrl,
    await mintToken(stack, FLOOR_TENANT),
    creates(`${runId}-floor`, CREATES),
  );
  await new Promise((resolve) => floorServer.close(resolve));
  const floorCalls = recorder.take();

  const created = await drive(stack.apiUrl, token, creates(`${runId}-fresh`, CREATES), true);
  const createCalls = recorder.take();
  const replayKey = `load-${runId}-replay`;
  // The key's first request alone: replays are retries of a create that was answered.
  const replayed = {
    method: 'POST',
    path: '/v1/leases',
    body: { workload: 'training', gpus: 1 },
    idempotencyKey: replayKey,
  } as const;
  await drive(stack.apiUrl, token, [replayed]);
  const replays = await drive(
    stack.apiUrl,
    token,
    Array.from({ length: REPLAYS }, () => replayed),
    true,
  );
  const replayCalls = recorder.take();
  const lists = await drive(
    stack.apiUrl,
    token,
    Array.from({ length: LISTS }, () => ({ method: 'GET', path: '/v1/leases?limit=25' }) as const),
  );
  const listCalls = recorder.take();
  const firstCreated = JSON.parse(created.bodies[0] ?? '{}') as { leaseId?: string };
  const gets = await drive(
    stack.apiUrl,
    token,
    Array.from(
      { length: LISTS },
      () => ({ method: 'GET', path: `/v1/leases/${firstCreated.leaseId}` }) as const,
    ),
  );
  const getCalls = recorder.take();
  const answered = (outcome: PhaseOutcome) =>
    outcome.statuses.filter((status) => status >= 200 && status < 300).length;
  const leaseIds = (outcome: PhaseOutcome) =>
    new Set(
      outcome.bodies
        .map((body) => (JSON.parse(body) as { leaseId?: string }).leaseId)
        .filter((leaseId) => leaseId !== undefined),
    );
  const perCreate = callsPer(createCalls, 'gpurent-api', CREATES);
  const workerPerLease = callsPer(createCalls, 'gpurent-lease-worker', CREATES);
  return {
    ...figuresOf(created, CREATES),
    floor: figuresOf(floor, CREATES),
    replays: figuresOf(replays, REPLAYS),
    lists: figuresOf(lists, LISTS),
    gets: figuresOf(gets, LISTS),
    // Every answered fresh key made its own lease (a create that timed out on the client has no answer to count).
    leasesPerFreshKey: round(leaseIds(created).size / answered(created), 3),
    idlePutEventsMs,
    busyMsByService: busyMsByService(createCalls),
    leasesForReplayedKey: leaseIds(replays).size,
    callsPerCreate: total(perCreate),
    callsPerCreateByKind: perCreate,
    meanCallMsInCreates: meanMsOf(createCalls, 'gpurent-api'),
    meanCallMsInFloorCreates: meanMsOf(floorCalls, 'gpurent-api'),
    callsPerReplay: total(callsPer(replayCalls, 'gpurent-api', REPLAYS)),
    callsPerList: total(callsPer(listCalls, 'gpurent-api', LISTS)),
    callsPerListByKind: callsPer(listCalls, 'gpurent-api', LISTS),
    callsPerGet: total(callsPer(getCalls, 'gpurent-api', LISTS)),
    callsPerFloorCreate: total(callsPer(floorCalls, 'gpurent-api', CREATES)),
    workerCallsPerLease: total(workerPerLease),
    workerCallsPerLeaseByKind: workerPerLease,
    standInCallsDuringCreates: total(callsPer(createCalls, OUTSIDE_FUNCTIONS, 1)),
  };
}

/** The backlog phase: the same creates against BACKLOG open and BACKLOG queued leases; then the gate's growth. */
async function backlogPhase(recorder: SdkCallRecorder, stack: LocalStack) {
  const token = await mintToken(stack);
  await seedBacklog();
  await stack.schedules.fire('gpurent-admission');
  recorder.take();
  const withBacklog = await drive(stack.apiUrl, token, creates(`${Date.now()}-backlog`, CREATES));
  const backlogCalls = recorder.take();
  const workerPerLease = callsPer(backlogCalls, 'gpurent-lease-worker', CREATES);
  return {
    withBacklog: figuresOf(withBacklog, CREATES),
    callsPerCreateWithBacklog: total(callsPer(backlogCalls, 'gpurent-api', CREATES)),
    workerCallsPerLeaseWithBacklog: total(workerPerLease),
    workerCallsPerLeaseWithBacklogByKind: workerPerLease,
    gateGrowth: await measureGateGrowth(stack.endpoints.dynamodb, recorder),
  };
}

const PHASES = { plain: plainPhase, backlog: backlogPhase };
type Phase = keyof typeof PHASES;

/**
 * Each phase in a Node process of its own, on a stack of its own: the
 * handlers read their configuration once, at import, so one process holds one
 * stack; and moto walks every instance it ever launched on each
 * DescribeInstances, so a second phase on the same stack would pay for the
 * first phase's instances, not for the backlog.
 */
function runPhase<Name extends Phase>(phase: Name): Promise<Awaited<ReturnType<(typeof PHASES)[Name]>>> {
  const out = join(mkdtempSync(join(tmpdir(), 'gpurent-load-')), `${phase}.json`);
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(import.meta.url), '--phase', phase, out],
      { maxBuffer: 256 * 1024 * 1024, env: process.env },
      (error) => {
        if (error) reject(error);
        else resolve(JSON.parse(readFileSync(out, 'utf8')));
      },
    );
  });
}

export async function run(): Promise<BenchmarkResult> {
  const plain = await runPhase('plain');
  const backlog = await runPhase('backlog');
  const figures = {
    clients: CLIENTS,
    creates: CREATES,
    backlog: { open: BACKLOG, queued: BACKLOG },
    ...plain,
    p99MsWithBacklog: backlog.withBacklog.p99Ms,
    backlogP99Ratio: round(backlog.withBacklog.p99Ms / plain.p99Ms, 2),
    throughputVsFloor: round(plain.requestsPerSecond / plain.floor.requestsPerSecond, 2),
    ...backlog,
  };
  const { floor, withBacklog, gateGrowth } = figures;
  const summary = [
    `creates (${CLIENTS} clients, ${CREATES} fresh keys): ${plain.requestsPerSecond} req/s, p50 ${plain.p50Ms} ms, p99 ${plain.p99Ms} ms, ${plain.timeouts} time-outs, ${plain.non2xx} non-2xx`,
    `bare create floor: ${floor.requestsPerSecond} req/s, p99 ${floor.p99Ms} ms (stack/floor throughput ${figures.throughputVsFloor})`,
    `with ${BACKLOG} open + ${BACKLOG} queued: ${withBacklog.requestsPerSecond} req/s, p99 ${withBacklog.p99Ms} ms (${figures.backlogP99Ratio}× without), ${withBacklog.timeouts} time-outs`,
    `replays of one key: ${plain.leasesForReplayedKey} lease(s), ${plain.replays.non2xx} non-2xx; fresh keys: ${plain.leasesPerFreshKey} lease per key`,
    `a provisioner's gate behind a queue of ${gateGrowth.map((g) => g.queued).join(' / ')}: ${gateGrowth.map((g) => g.gateCallsPerLease).join(' / ')} DynamoDB calls per lease`,
    `calls per create ${plain.callsPerCreate} (${backlog.callsPerCreateWithBacklog} with backlog), per list ${plain.callsPerList}, per get ${plain.callsPerGet}; worker calls per lease ${plain.workerCallsPerLease} (${backlog.workerCallsPerLeaseWithBacklog} with backlog)`,
  ].join('\n');
  return { key: 'load', figures, summary };
}

/** `tsx bench/load.ts --phase NAME OUT`: one phase on a stack of its own, its figures written to OUT. */
async function phaseMain([flag, phase, out]: readonly string[]): Promise<void> {
  if (flag !== '--phase' || !(phase && phase in PHASES) || !out)
    throw new Error(`usage: --phase ${Object.keys(PHASES).join('|')} OUT`);
  const recorder = recordSdkCalls();
  const stack = await startLocalStack({ port: 0, timers: true });
  try {
    const figures = await PHASES[phase as Phase](recorder, stack);
    writeFileSync(out, JSON.stringify(figures));
  } finally {
    recorder.stop();
    await stack.stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  phaseMain(process.argv.slice(2)).then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
