import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalStack, startLocalStack } from '../../local/stack';
import { emulatorEndpoints } from '../support/emulators';

const MINUTE = 60_000;
let stack: LocalStack;

beforeAll(async () => {
  stack = await startLocalStack({
    port: 0,
    endpoints: emulatorEndpoints(),
    prefix: 'e2e-scale',
    timers: false,
    gpuLoad: { kind: 'steady', percent: 95 },
  });
});

afterAll(async () => {
  await stack?.stop();
});

interface GroupJson {
  size: number;
  desired: number;
  members: { leaseId: string; status: string }[];
  decisions: { action: string; reason: string }[];
}

async function api(method: string, path: string, body?: unknown) {
  const response = await fetch(`${stack.apiUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as GroupJson };
}

/**
 * Until the agent stand-in holds the lease credentials the worker sent the
 * member's machine: its telemetry is published with them, and not before
 * (as an instance's agent starts only once they arrive).
 */
async function untilMachineCredentials(leaseId: string): Promise<void> {
  const response = await fetch(`${stack.apiUrl}/v1/leases/${leaseId}`, {
    headers: { authorization: `Bearer ${stack.token}` },
  });
  const lease = (await response.json()) as { instances: { instanceId: string }[] };
  const instanceId = lease.instances[0]?.instanceId ?? '';
  const deadline = Date.now() + 30_000;
  while (stack.tasks.leaseClientsOf(instanceId) === undefined) {
    if (Date.now() > deadline) throw new Error(`${instanceId} never got its lease's credentials`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function untilRunning(count: number): Promise<GroupJson> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const group = (await api('GET', '/v1/scaling-groups/busy')).body;
    if (group.members.filter((m) => m.status === 'RUNNING').length === count) return group;
    if (Date.now() > deadline)
      throw new Error(`Timed out waiting for ${count} running: ${JSON.stringify(group)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('autoscaling on the local runtime', () => {
  it('grows a group from the simulated GPU load the agent stand-in publishes to moto', async () => {
    const created = await api('PUT', '/v1/scaling-groups/busy', {
      instanceType: 'g5.xlarge',
      min: 1,
      max: 2,
      instanceWarmupSeconds: 0,
    });
    expect(created.status).toBe(201);
    const start = Math.floor(Date.now() / MINUTE) * MINUTE;

    await stack.schedules.fire('gpurent-scaling-evaluator', start);
    const first = await untilRunning(1);
    await untilMachineCredentials(first.members[0]?.leaseId ?? '');
    for (const minute of [1, 2, 3]) await stack.schedules.fire('gpurent-gpu-load', start + minute * MINUTE);
    await stack.schedules.fire('gpurent-scaling-evaluator', start + 4 * MINUTE);

    const grown = await untilRunning(2);
    expect(grown.desired).toBe(2);
    expect(grown.decisions[0]?.action).toBe('scale-out');
    expect(grown.decisions[0]?.reason).toContain('gpuUtilization > 80% for 3 datapoints (95%, 95%, 95%)');
  });
});
