import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DescribeImagesCommand, EC2Client } from '@aws-sdk/client-ec2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import openApiDocument from '../../docs/openapi.json';
import { type LocalStack, startLocalStack } from '../../local/stack';
import { emulatorEndpoints } from '../support/emulators';

/*
 * Stoplight Prism's validation proxy between a client and the local stack:
 * every answer the API gives is checked against docs/openapi.json, for every
 * operation, with valid and invalid calls. Prism runs with --errors, so a
 * response that breaks the document comes back as Prism's own error instead
 * of the API's answer, and it names each violation in the sl-violations header.
 * Requests are not validated by Prism (--validate-request=false): the invalid
 * calls must reach the API, whose refusals are what is checked.
 */
let stack: LocalStack;
let prism: Prism;

type Token = 'tenant' | 'admin' | 'none';

interface Call {
  readonly operationId: string;
  readonly method: 'GET' | 'PUT' | 'POST' | 'DELETE';
  readonly path: string;
  readonly body?: unknown;
  readonly token?: Token;
  readonly headers?: Readonly<Record<string, string>>;
  /** The status the API must answer with. */
  readonly status: number;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

interface Prism {
  readonly url: string;
  readonly process: ChildProcess;
}

/** Prism's proxy for `document` in front of the local stack, on a free loopback port, once it answers. */
async function startPrism(document: string): Promise<Prism> {
  const port = await freePort();
  let log = '';
  const child = spawn(
    'node_modules/.bin/prism',
    [
      'proxy',
      document,
      stack.apiUrl,
      '--errors',
      '--validate-request=false',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const collect = (chunk: Buffer) => {
    log += chunk.toString();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 600; attempt++) {
    if (child.exitCode !== null) throw new Error(`prism exited: ${log}`);
    const up = await fetch(`${url}/v1/health`).then(
      () => true,
      () => false,
    );
    if (up) return { url, process: child };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill();
  throw new Error(`prism did not listen: ${log}`);
}

const root = new URL('../../', import.meta.url).pathname;

beforeAll(async () => {
  stack = await startLocalStack({
    port: 0,
    endpoints: emulatorEndpoints(),
    timers: false,
    prefix: `prism${Date.now()}`,
  });
  prism = await startPrism('docs/openapi.json');
}, 120_000);

afterAll(async () => {
  prism?.process.kill();
  await stack?.stop();
});

async function call(request: Call, through: Prism = prism) {
  const token = request.token ?? 'tenant';
  const headers: Record<string, string> = { ...request.headers };
  if (token !== 'none')
    headers.authorization = `Bearer ${token === 'admin' ? stack.adminToken : stack.token}`;
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${through.url}${request.path}`, {
    method: request.method,
    headers,
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
  });
  const text = await response.text();
  return {
    status: response.status,
    violations: response.headers.get('sl-violations'),
    contentType: response.headers.get('content-type'),
    text,
  };
}

const hour = 3_600_000;
const now = Date.now();
const thisMonth = new Date().toISOString().slice(0, 7);
const missingLease = 'lease_00000000000000000000000000';

async function emulatorAmi(region: string): Promise<string> {
  const ec2 = new EC2Client({
    region,
    endpoint: stack.endpoints.ec2,
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
  const images = await ec2.send(new DescribeImagesCommand({ Owners: ['amazon'] }));
  return (
    (images.Images ?? [])
      .map((image) => image.ImageId ?? '')
      .find((id) => /^ami-([0-9a-f]{8}|[0-9a-f]{17})$/.test(id)) ?? ''
  );
}

/** Valid calls, in an order where each finds what an earlier one made; every operation at least once. */
async function validCalls(leaseId: string, taskLeaseId: string, queuedLeaseId: string): Promise<Call[]> {
  const amis = { 'us-east-1': await emulatorAmi('us-east-1'), 'us-west-2': await emulatorAmi('us-west-2') };
  return [
    { operationId: 'getHealth', method: 'GET', path: '/v1/health', token: 'none', status: 200 },
    // QUEUED, with its reason, position and estimate.
    { operationId: 'getLease', method: 'GET', path: `/v1/leases/${queuedLeaseId}`, status: 200 },
    {
      operationId: 'getOpenApiDocument',
      method: 'GET',
      path: '/v1/openapi.json',
      token: 'none',
      status: 200,
    },
    { operationId: 'getLease', method: 'GET', path: `/v1/leases/${leaseId}`, status: 200 },
    { operationId: 'getLeaseMetrics', method: 'GET', path: `/v1/leases/${leaseId}/metrics`, status: 200 },
    { operationId: 'listLeases', method: 'GET', path: '/v1/leases?limit=1', status: 200 },
    { operationId: 'getUsage', method: 'GET', path: '/v1/usage?groupBy=day', status: 200 },
    { operationId: 'exportUsage', method: 'GET', path: '/v1/usage/export', status: 200 },
    { operationId: 'getDemandProfile', method: 'GET', path: '/v1/profile', status: 200 },
    {
      operationId: 'putBudget',
      method: 'PUT',
      path: '/v1/budgets/prism',
      body: { monthlyLimitUsd: 100 },
      status: 201,
    },
    {
      operationId: 'putBudget',
      method: 'PUT',
      path: '/v1/budgets/prism',
      body: { monthlyLimitUsd: 200, thresholds: [50], basis: 'actual' },
      status: 200,
    },
    { operationId: 'listBudgets', method: 'GET', path: '/v1/budgets', status: 200 },
    { operationId: 'getBudget', method: 'GET', path: '/v1/budgets/prism', status: 200 },
    { operationId: 'listAllBudgets', method: 'GET', path: '/v1/admin/budgets', token: 'admin', status: 200 },
    { operationId: 'deleteBudget', method: 'DELETE', path: '/v1/budgets/prism', status: 204 },
    {
      operationId: 'putScalingGroup',
      method: 'PUT',
      path: '/v1/scaling-groups/prism',
      body: { instanceType: 'g5.xlarge', min: 1, max: 2 },
      status: 201,
    },
    { operationId: 'listScalingGroups', method: 'GET', path: '/v1/scaling-groups', status: 200 },
    { operationId: 'getScalingGroup', method: 'GET', path: '/v1/scaling-groups/prism', status: 200 },
    { operationId: 'deleteScalingGroup', method: 'DELETE', path: '/v1/scaling-groups/prism', status: 202 },
    { operationId: 'getMonthlyAudit', method: 'GET', path: `/v1/audit/${thisMonth}`, status: 200 },
    {
      operationId: 'getMonthlyAuditReport',
      method: 'GET',
      path: `/v1/audit/${thisMonth}/report.html`,
      status: 200,
    },
    {
      operationId: 'putSettings',
      method: 'PUT',
      path: '/v1/settings',
      body: { defaultLeaseDurationMinutes: 60 },
      status: 200,
    },
    { operationId: 'getSettings', method: 'GET', path: '/v1/settings', status: 200 },
    {
      operationId: 'putSettings',
      method: 'PUT',
      path: '/v1/settings',
      body: { defaultLeaseDurationMinutes: null },
      status: 200,
    },
    { operationId: 'listPools', method: 'GET', path: '/v1/pools?gpus=1', token: 'admin', status: 200 },
    {
      operationId: 'putReservation',
      method: 'PUT',
      path: '/v1/admin/reservations/prism',
      token: 'admin',
      body: {
        instanceType: 'g6f.large',
        region: 'us-east-1',
        zone: 'us-east-1a',
        count: 2,
        start: new Date(now - hour).toISOString(),
        end: new Date(now + 30 * 24 * hour).toISOString(),
      },
      status: 200,
    },
    {
      operationId: 'listReservations',
      method: 'GET',
      path: '/v1/admin/reservations',
      token: 'admin',
      status: 200,
    },
    {
      operationId: 'getReservation',
      method: 'GET',
      path: '/v1/admin/reservations/prism',
      token: 'admin',
      status: 200,
    },
    {
      operationId: 'deleteReservation',
      method: 'DELETE',
      path: '/v1/admin/reservations/prism',
      token: 'admin',
      status: 204,
    },
    {
      operationId: 'putImageVersion',
      method: 'PUT',
      path: '/v1/admin/images/prism/versions/v1',
      token: 'admin',
      body: { amis },
      status: 200,
    },
    {
      operationId: 'putImageVersion',
      method: 'PUT',
      path: '/v1/admin/images/prism/versions/v2',
      token: 'admin',
      body: { amis },
      status: 200,
    },
    {
      operationId: 'promoteImageVersion',
      method: 'POST',
      path: '/v1/admin/images/prism/versions/v1/promote',
      token: 'admin',
      status: 200,
    },
    {
      operationId: 'promoteImageVersion',
      method: 'POST',
      path: '/v1/admin/images/prism/versions/v2/promote',
      token: 'admin',
      status: 200,
    },
    {
      operationId: 'rollbackImage',
      method: 'POST',
      path: '/v1/admin/images/prism/rollback',
      token: 'admin',
      status: 200,
    },
    { operationId: 'listImages', method: 'GET', path: '/v1/admin/images', token: 'admin', status: 200 },
    {
      operationId: 'putWarmPool',
      method: 'PUT',
      path: '/v1/admin/warm-pools/prism',
      token: 'admin',
      // Size 0: the pool is defined, and no machine is launched for it.
      body: { region: 'us-east-1', instanceType: 'g5.xlarge', size: 0, image: 'prism' },
      status: 201,
    },
    {
      operationId: 'listWarmPools',
      method: 'GET',
      path: '/v1/admin/warm-pools',
      token: 'admin',
      status: 200,
    },
    {
      operationId: 'getWarmPool',
      method: 'GET',
      path: '/v1/admin/warm-pools/prism',
      token: 'admin',
      status: 200,
    },
    {
      operationId: 'deleteWarmPool',
      method: 'DELETE',
      path: '/v1/admin/warm-pools/prism',
      token: 'admin',
      status: 204,
    },
    { operationId: 'getImage', method: 'GET', path: '/v1/admin/images/prism', token: 'admin', status: 200 },
    { operationId: 'openLeaseSession', method: 'POST', path: `/v1/leases/${leaseId}/session`, status: 201 },
    { operationId: 'getLeaseLogs', method: 'GET', path: `/v1/leases/${taskLeaseId}/logs`, status: 200 },
    {
      operationId: 'putAdminIdlePolicy',
      method: 'PUT',
      path: `/v1/admin/tenants/${LOCAL_TENANT}/idle-policy`,
      token: 'admin',
      body: { action: 'notify', belowPercent: 5, forMinutes: 60 },
      status: 200,
    },
    {
      operationId: 'getAdminIdlePolicy',
      method: 'GET',
      path: `/v1/admin/tenants/${LOCAL_TENANT}/idle-policy`,
      token: 'admin',
      status: 200,
    },
    {
      operationId: 'putIdlePolicy',
      method: 'PUT',
      path: '/v1/idle-policy',
      body: { action: 'release', belowPercent: 10, forMinutes: 30 },
      status: 200,
    },
    { operationId: 'getIdlePolicy', method: 'GET', path: '/v1/idle-policy', status: 200 },
    {
      operationId: 'putSpendAnomalySettings',
      method: 'PUT',
      path: '/v1/spend-anomaly-settings',
      body: { project: 'vision', sensitivity: 'high' },
      status: 200,
    },
    {
      operationId: 'getSpendAnomalySettings',
      method: 'GET',
      path: '/v1/spend-anomaly-settings',
      status: 200,
    },
    { operationId: 'deleteIdlePolicy', method: 'DELETE', path: '/v1/idle-policy', status: 204 },
    {
      operationId: 'deleteAdminIdlePolicy',
      method: 'DELETE',
      path: `/v1/admin/tenants/${LOCAL_TENANT}/idle-policy`,
      token: 'admin',
      status: 204,
    },
    { operationId: 'getQuota', method: 'GET', path: '/v1/quota', status: 200 },
    {
      operationId: 'putTenantQuota',
      method: 'PUT',
      path: `/v1/admin/tenants/${LOCAL_TENANT}/quota`,
      token: 'admin',
      body: { maxGpus: 64, maxHourlyUsd: 500.5, maxGpusByMode: { spot: 32 }, weight: 2 },
      status: 200,
    },
    {
      operationId: 'getTenantQuota',
      method: 'GET',
      path: `/v1/admin/tenants/${LOCAL_TENANT}/quota`,
      token: 'admin',
      status: 200,
    },
    { operationId: 'getLimits', method: 'GET', path: '/v1/limits', status: 200 },
    {
      operationId: 'putTenantLimits',
      method: 'PUT',
      path: `/v1/admin/tenants/${LOCAL_TENANT}/limits`,
      token: 'admin',
      body: { requestsPerSecond: 1000, maxWaitingLeases: 50 },
      status: 200,
    },
    {
      operationId: 'getTenantLimits',
      method: 'GET',
      path: `/v1/admin/tenants/${LOCAL_TENANT}/limits`,
      token: 'admin',
      status: 200,
    },
    { operationId: 'releaseLease', method: 'DELETE', path: `/v1/leases/${leaseId}`, status: 202 },
    { operationId: 'getLease', method: 'GET', path: `/v1/leases/${leaseId}`, status: 200 },
  ];
}

/** The tenant of the local stack's tenant token. */
const LOCAL_TENANT = 'local-tenant';

/** Waits, on the API itself rather than through Prism, until the lease satisfies `done`. */
async function until(
  leaseId: string,
  done: (lease: { status: string; task?: { status: string } }) => boolean,
) {
  for (let attempt = 0; attempt < 600; attempt++) {
    const response = await fetch(`${stack.apiUrl}/v1/leases/${leaseId}`, {
      headers: { authorization: `Bearer ${stack.token}` },
    });
    const lease = (await response.json()) as { status: string; task?: { status: string } };
    if (done(lease)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`lease ${leaseId} did not get there in time`);
}

const createLease: Call = {
  operationId: 'createLease',
  method: 'POST',
  path: '/v1/leases',
  headers: { 'idempotency-key': `prism-${now}` },
  body: { workload: 'batch', gpus: 1 },
  status: 202,
};

/** The local tenant may make as many requests a second as the admin routes allow, with the other limits' defaults. */
const raiseRate: Call = {
  operationId: 'putTenantLimits',
  method: 'PUT',
  path: `/v1/admin/tenants/${LOCAL_TENANT}/limits`,
  token: 'admin',
  body: { requestsPerSecond: 1000 },
  status: 200,
};

/** Refusals: bad input of each kind, things that do not exist, and no token. */
function invalidCalls(): Call[] {
  const noToken = Object.entries(openApiDocument.paths).flatMap(([path, operations]) =>
    Object.entries(operations)
      .filter(([, operation]) => !('security' in operation))
      .map(([method, operation]) => ({
        operationId: (operation as { operationId: string }).operationId,
        method: method.toUpperCase() as Call['method'],
        path: path
          .replace(/\{id\}/, missingLease)
          .replace(/\{month\}/, thisMonth)
          .replace(/\{(\w+)\}/g, 'x'),
        token: 'none' as const,
        status: 401,
      })),
  );
  return [
    ...noToken,
    {
      operationId: 'createLease',
      method: 'POST',
      path: '/v1/leases',
      headers: { 'idempotency-key': `prism-bad-${now}` },
      body: { workload: 'batch', gpus: 0 },
      status: 400,
    },
    {
      operationId: 'createLease',
      method: 'POST',
      path: '/v1/leases',
      headers: { 'idempotency-key': `prism-spot-${now}` },
      body: { workload: 'inference', gpus: 1, mode: 'spot' },
      status: 400,
    },
    {
      operationId: 'createLease',
      method: 'POST',
      path: '/v1/leases',
      body: { workload: 'batch' },
      status: 400,
    },
    { operationId: 'listLeases', method: 'GET', path: '/v1/leases?limit=0', status: 400 },
    { operationId: 'getLease', method: 'GET', path: `/v1/leases/${missingLease}`, status: 404 },
    { operationId: 'getLease', method: 'GET', path: '/v1/leases/%ZZ', status: 400 },
    { operationId: 'releaseLease', method: 'DELETE', path: `/v1/leases/${missingLease}`, status: 404 },
    { operationId: 'releaseLease', method: 'DELETE', path: '/v1/leases/nope', status: 400 },
    {
      operationId: 'getLeaseMetrics',
      method: 'GET',
      path: `/v1/leases/${missingLease}/metrics`,
      status: 404,
    },
    { operationId: 'getUsage', method: 'GET', path: '/v1/usage?groupBy=planet', status: 400 },
    { operationId: 'exportUsage', method: 'GET', path: '/v1/usage/export?from=yesterday', status: 400 },
    { operationId: 'getDemandProfile', method: 'GET', path: '/v1/profile?from=soon', status: 400 },
    {
      operationId: 'putBudget',
      method: 'PUT',
      path: '/v1/budgets/prism',
      body: { monthlyLimitUsd: -1 },
      status: 400,
    },
    { operationId: 'getBudget', method: 'GET', path: '/v1/budgets/%E0%A4%A', status: 400 },
    { operationId: 'getBudget', method: 'GET', path: '/v1/budgets/absent', status: 404 },
    { operationId: 'deleteBudget', method: 'DELETE', path: '/v1/budgets/absent', status: 404 },
    { operationId: 'listAllBudgets', method: 'GET', path: '/v1/admin/budgets', status: 403 },
    {
      operationId: 'putScalingGroup',
      method: 'PUT',
      path: '/v1/scaling-groups/prism',
      body: { instanceType: 'g5.xlarge', min: 3, max: 1 },
      status: 400,
    },
    { operationId: 'getScalingGroup', method: 'GET', path: '/v1/scaling-groups/absent', status: 404 },
    { operationId: 'deleteScalingGroup', method: 'DELETE', path: '/v1/scaling-groups/absent', status: 404 },
    { operationId: 'getMonthlyAudit', method: 'GET', path: '/v1/audit/2026-13', status: 400 },
    {
      operationId: 'getMonthlyAuditReport',
      method: 'GET',
      path: '/v1/audit/1999-01x/report.html',
      status: 400,
    },
    { operationId: 'putSettings', method: 'PUT', path: '/v1/settings', body: { other: 1 }, status: 400 },
    {
      operationId: 'putSpendAnomalySettings',
      method: 'PUT',
      path: '/v1/spend-anomaly-settings',
      body: { sensitivity: 'extreme' },
      status: 400,
    },
    { operationId: 'listPools', method: 'GET', path: '/v1/pools', status: 403 },
    { operationId: 'listPools', method: 'GET', path: '/v1/pools?gpus=99', token: 'admin', status: 400 },
    {
      operationId: 'listReservations',
      method: 'GET',
      path: '/v1/admin/reservations?limit=1000',
      token: 'admin',
      status: 400,
    },
    {
      operationId: 'putReservation',
      method: 'PUT',
      path: '/v1/admin/reservations/prism',
      token: 'admin',
      body: {
        instanceType: 'g5.xlarge',
        region: 'us-east-1',
        zone: 'us-east-1z',
        count: 1,
        start: new Date(now).toISOString(),
        end: new Date(now + hour).toISOString(),
      },
      status: 400,
    },
    {
      operationId: 'getReservation',
      method: 'GET',
      path: '/v1/admin/reservations/absent',
      token: 'admin',
      status: 404,
    },
    {
      operationId: 'deleteReservation',
      method: 'DELETE',
      path: '/v1/admin/reservations/absent',
      token: 'admin',
      status: 404,
    },
    {
      operationId: 'putImageVersion',
      method: 'PUT',
      path: '/v1/admin/images/prism/versions/v3',
      token: 'admin',
      body: { amis: {} },
      status: 400,
    },
    {
      operationId: 'promoteImageVersion',
      method: 'POST',
      path: '/v1/admin/images/prism/versions/v9/promote',
      token: 'admin',
      status: 404,
    },
    {
      operationId: 'rollbackImage',
      method: 'POST',
      path: '/v1/admin/images/absent/rollback',
      token: 'admin',
      status: 409,
    },
    { operationId: 'getImage', method: 'GET', path: '/v1/admin/images/absent', token: 'admin', status: 404 },
    { operationId: 'listImages', method: 'GET', path: '/v1/admin/images', status: 403 },
    {
      operationId: 'putTenantQuota',
      method: 'PUT',
      path: `/v1/admin/tenants/${LOCAL_TENANT}/quota`,
      token: 'admin',
      body: { maxGpus: -1, maxHourlyUsd: 10 },
      status: 400,
    },
    {
      operationId: 'putTenantQuota',
      method: 'PUT',
      path: `/v1/admin/tenants/${LOCAL_TENANT}/quota`,
      body: { maxGpus: 1, maxHourlyUsd: 10 },
      status: 403,
    },
    {
      operationId: 'getTenantQuota',
      method: 'GET',
      path: '/v1/admin/tenants/no%20spaces/quota',
      token: 'admin',
      status: 400,
    },
    {
      operationId: 'getTenantQuota',
      method: 'GET',
      path: `/v1/admin/tenants/${LOCAL_TENANT}/quota`,
      status: 403,
    },
    {
      operationId: 'putTenantLimits',
      method: 'PUT',
      path: `/v1/admin/tenants/${LOCAL_TENANT}/limits`,
      token: 'admin',
      body: { requestsPerSecond: 0 },
      status: 400,
    },
    {
      operationId: 'putTenantLimits',
      method: 'PUT',
      path: `/v1/admin/tenants/${LOCAL_TENANT}/limits`,
      body: { requestsPerSecond: 100 },
      status: 403,
    },
    {
      operationId: 'getTenantLimits',
      method: 'GET',
      path: '/v1/admin/tenants/no%20spaces/limits',
      token: 'admin',
      status: 400,
    },
    {
      operationId: 'getTenantLimits',
      method: 'GET',
      path: `/v1/admin/tenants/${LOCAL_TENANT}/limits`,
      status: 403,
    },
    // With a cap of no waiting leases, a new lease is 429 WAITING_LEASES_CAP_REACHED; then the defaults again.
    {
      operationId: 'putTenantLimits',
      method: 'PUT',
      path: `/v1/admin/tenants/${LOCAL_TENANT}/limits`,
      token: 'admin',
      body: { requestsPerSecond: 1000, maxWaitingLeases: 0 },
      status: 200,
    },
    { ...createLease, headers: { 'idempotency-key': `prism-capped-${now}` }, status: 429 },
    raiseRate,
  ];
}

const documentedOperations = Object.values(openApiDocument.paths)
  .flatMap((operations) => Object.values(operations).map((o) => (o as { operationId: string }).operationId))
  .sort();

describe("the API through Prism's validation proxy", () => {
  it('answers every operation, valid calls and refusals, as docs/openapi.json describes', async () => {
    // The calls follow each other faster than the default 20 a second: the contract is about answers, not the rate.
    const unthrottled = await call(raiseRate);
    const created = await call(createLease);
    const leaseId = (JSON.parse(created.text) as { leaseId: string }).leaseId;
    // A lease with a task, for its logs; a session needs a RUNNING lease.
    const withTask = await call({
      ...createLease,
      headers: { 'idempotency-key': `prism-task-${now}` },
      body: { workload: 'batch', gpus: 1, task: { command: ['echo', 'prism'] } },
    });
    const taskLeaseId = (JSON.parse(withTask.text) as { leaseId: string }).leaseId;
    await until(leaseId, (lease) => lease.status === 'RUNNING');
    await until(taskLeaseId, (lease) => lease.task?.status === 'SUCCEEDED');
    // Over a quota of no GPUs a lease waits QUEUED (a later call raises the quota again).
    const noGpus = await call({
      operationId: 'putTenantQuota',
      method: 'PUT',
      path: `/v1/admin/tenants/${LOCAL_TENANT}/quota`,
      token: 'admin',
      body: { maxGpus: 0, maxHourlyUsd: 0 },
      status: 200,
    });
    const queued = await call({
      ...createLease,
      headers: { 'idempotency-key': `prism-queued-${now}` },
      body: { workload: 'training', gpus: 1, priority: 900, maxWaitMinutes: 120 },
    });
    const queuedLeaseId = (JSON.parse(queued.text) as { leaseId: string }).leaseId;
    await until(queuedLeaseId, (lease) => lease.status === 'QUEUED');
    const valid = [createLease, ...(await validCalls(leaseId, taskLeaseId, queuedLeaseId))];
    const invalid = invalidCalls();
    const problems: string[] = [unthrottled, created, withTask, noGpus, queued].flatMap((answer) =>
      answer.violations ? [`setup: ${answer.violations}`] : [],
    );
    for (const request of [...valid.slice(1), ...invalid]) {
      const answer = await call(request);
      const where = `${request.method} ${request.path} (${request.operationId})`;
      if (answer.violations) problems.push(`${where}: ${answer.violations}`);
      if (answer.status !== request.status) {
        problems.push(
          `${where}: ${answer.status} instead of ${request.status}: ${answer.text.slice(0, 300)}`,
        );
      }
      if (answer.status !== 204 && !answer.contentType) problems.push(`${where}: no content type`);
    }
    expect(problems).toEqual([]);
    expect([...new Set(valid.map((r) => r.operationId))].sort()).toEqual(documentedOperations);
    expect([...new Set(invalid.map((r) => r.operationId))].sort()).toEqual(
      documentedOperations.filter((id) => id !== 'getHealth' && id !== 'getOpenApiDocument'),
    );
  }, 180_000);

  it('reports a response the document does not allow (so the check above can fail)', async () => {
    // The document with one more required field in the health answer than the API sends.
    const stricter = structuredClone(openApiDocument) as typeof openApiDocument;
    const health = stricter.paths['/v1/health'].get.responses['200'].content['application/json'].schema;
    health.required = [...health.required, 'uptime'];
    const file = join(mkdtempSync(join(tmpdir(), 'prism-')), 'stricter.json');
    writeFileSync(file, JSON.stringify(stricter));
    const strict = await startPrism(file);
    try {
      const answer = await call(
        { operationId: 'getHealth', method: 'GET', path: '/v1/health', token: 'none', status: 200 },
        strict,
      );
      expect(answer.status).toBeGreaterThanOrEqual(500);
      expect(answer.text).toContain('uptime');
    } finally {
      strict.process.kill();
    }
  }, 120_000);
});
