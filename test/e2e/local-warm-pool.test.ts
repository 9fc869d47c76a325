import {
  DescribeInstanceAttributeCommand,
  DescribeInstancesCommand,
  type EC2Client,
} from '@aws-sdk/client-ec2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { leaseBody } from '../../functions/api/lease-view';
import { type LocalStack, startLocalStack } from '../../local/stack';
import { LOCAL_IMAGE_VERSION, localWarmPoolName, warmPoolFromEnv } from '../../local/warm-pool';
import { WARM_POOL_TAG } from '../../shared/domain/warm-pools/pool';
import { awsProbe } from '../support/aws';
import { emulatorEndpoints } from '../support/emulators';

const POOL = warmPoolFromEnv({ GPURENT_WARM_POOL: 'g5.xlarge:2' });
const POOL_NAME = localWarmPoolName(POOL ?? { instanceType: '', size: 0 });
let stack: LocalStack;
let ec2: EC2Client;

beforeAll(async () => {
  stack = await startLocalStack({
    port: 0,
    endpoints: emulatorEndpoints(),
    prefix: 'e2e-warm',
    timers: false,
    warmPool: POOL,
  });
  // The stack set the emulators' endpoints in the environment.
  ec2 = awsProbe().ec2;
});

afterAll(async () => {
  ec2?.destroy();
  await stack?.stop();
});

interface PoolJson {
  size: number;
  machines: { launching: number; stopping: number; ready: number };
}
type LeaseJson = ReturnType<typeof leaseBody>;

async function api<Body>(method: string, path: string, token: string, body?: unknown) {
  const response = await fetch(`${stack.apiUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'idempotency-key': `e2e-warm-${Math.random().toString(36).slice(2)}`,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Body };
}

const pool = async () =>
  (await api<PoolJson>('GET', `/v1/admin/warm-pools/${POOL_NAME}`, stack.adminToken)).body;

/** Runs the filler as its schedule would, minute after minute, until the pool holds `size` ready machines and nothing else. */
async function untilFull(): Promise<PoolJson> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    await stack.schedules.fire('gpurent-warm-pool-filler');
    await stack.warmInit.tick();
    const now = await pool();
    const { launching, stopping, ready } = now.machines;
    if (ready === now.size && launching + stopping === 0) return now;
    if (Date.now() > deadline) throw new Error(`Timed out filling the pool: ${JSON.stringify(now)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function warmInstances() {
  const found = await ec2.send(
    new DescribeInstancesCommand({
      Filters: [{ Name: `tag:${WARM_POOL_TAG}`, Values: [POOL_NAME] }],
    }),
  );
  return (found.Reservations ?? [])
    .flatMap((r) => r.Instances ?? [])
    .filter((i) => !['shutting-down', 'terminated'].includes(i.State?.Name ?? ''));
}

describe('a warm pool on the local runtime (GPURENT_WARM_POOL=g5.xlarge:2)', () => {
  it('fills the pool with stopped machines launched with the init user data, one of which an on-demand lease starts warm, and refills it', async () => {
    expect((await untilFull()).machines.ready).toBe(2);
    const stopped = await warmInstances();
    expect(stopped.map((i) => i.State?.Name)).toEqual(['stopped', 'stopped']);
    const userData = await ec2.send(
      new DescribeInstanceAttributeCommand({ InstanceId: stopped[0]?.InstanceId, Attribute: 'userData' }),
    );
    const script = Buffer.from(userData.UserData?.Value ?? '', 'base64').toString('utf8');
    expect(script).toContain(`Key=gpurent:warm-ready,Value=gpu:${LOCAL_IMAGE_VERSION}`);

    const created = await api<LeaseJson>('POST', '/v1/leases', stack.token, {
      workload: 'training',
      gpus: 1,
      mode: 'on-demand',
      instanceType: 'g5.xlarge',
    });
    expect(created.status).toBe(202);
    const deadline = Date.now() + 30_000;
    let lease = created.body;
    while (lease.status !== 'RUNNING' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      lease = (await api<LeaseJson>('GET', `/v1/leases/${created.body.leaseId}`, stack.token)).body;
    }
    expect(lease.status).toBe('RUNNING');
    expect(lease.start).toBe('warm');
    expect(typeof lease.secondsToRunning).toBe('number');
    const startedId = lease.instances?.[0]?.instanceId;
    expect(stopped.map((i) => i.InstanceId)).toContain(startedId);

    const refilled = await untilFull();
    expect(refilled.machines.ready).toBe(2);
    const kept = (await warmInstances()).map((i) => i.InstanceId);
    expect(kept).toHaveLength(2);
    expect(kept).not.toContain(startedId);
  });
});
