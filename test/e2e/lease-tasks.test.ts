import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CloudWatchLogsClient, GetLogEventsCommand } from '@aws-sdk/client-cloudwatch-logs';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { leaseBody } from '../../functions/api/lease-view';
import { putSpotWarning } from '../../local/ec2-events';
import { type LocalStack, startLocalStack } from '../../local/stack';
import { taskLogStreams } from '../../shared/domain/tasks/log-streams';
import { BUCKETS, LOG_GROUPS } from '../../shared/resources';
import { emulatorEndpoints } from '../support/emulators';
import { processAlive } from '../support/processes';

let stack: LocalStack;

beforeAll(async () => {
  stack = await startLocalStack({
    port: 0,
    endpoints: emulatorEndpoints(),
    prefix: 'e2e-tasks',
    timers: false,
  });
});

afterAll(async () => {
  await stack?.stop();
});

type LeaseJson = ReturnType<typeof leaseBody>;
let keys = 0;

async function api<Body = LeaseJson>(method: string, path: string, body?: unknown) {
  keys += 1;
  const response = await fetch(`${stack.apiUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${stack.token}`,
      'content-type': 'application/json',
      'idempotency-key': `e2e-task-${Date.now()}-${keys}`,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Body };
}

async function until(what: string, leaseId: string, done: (lease: LeaseJson) => boolean, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const lease = (await api('GET', `/v1/leases/${leaseId}`)).body;
    if (done(lease)) return lease;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}: ${JSON.stringify(lease)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function createWithTask(task: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const created = await api('POST', '/v1/leases', { workload: 'batch', gpus: 1, ...extra, task });
  expect(created.status).toBe(202);
  return created.body.leaseId;
}

/** The checkpoint bucket in moto's S3, where the local agent keeps GPURENT_CHECKPOINT_URI. */
const checkpoints = () => ({
  s3: new S3Client({ endpoint: stack.endpoints.s3, region: 'us-east-1', forcePathStyle: true }),
  bucket: stack.env[BUCKETS.checkpoints.envVar] ?? '',
});

async function checkpointKeys(prefix: string): Promise<string[]> {
  const { s3, bucket } = checkpoints();
  const listed = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
  return (listed.Contents ?? []).map((object) => object.Key ?? '');
}

async function checkpointText(key: string): Promise<string> {
  const { s3, bucket } = checkpoints();
  const object = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return (await object.Body?.transformToString()) ?? '';
}

async function logLines(leaseId: string, attempt: number): Promise<string[]> {
  const logs = new CloudWatchLogsClient({ endpoint: stack.endpoints.events, region: 'us-east-1' });
  try {
    const result = await logs.send(
      new GetLogEventsCommand({
        logGroupName: stack.env[LOG_GROUPS.taskOutput.envVar],
        logStreamName: taskLogStreams(leaseId, attempt).stdout,
      }),
    );
    return (result.events ?? []).map((event) => event.message ?? '');
  } finally {
    logs.destroy();
  }
}

describe('tasks on leases, end to end through the local API, worker, SSM agent and task-events handler', () => {
  it('runs a task that prints and exits 0: logs in CloudWatch Logs, lease RELEASED, bill closed at the task end', async () => {
    const leaseId = await createWithTask({
      command: ['sh', '-c', 'echo "hello from attempt $GPURENT_ATTEMPT"; echo "$GPURENT_CHECKPOINT_URI"'],
      env: { GREETING: 'hi', API_TOKEN: 'very-secret' },
    });
    const released = await until('RELEASED', leaseId, (lease) => lease.status === 'RELEASED');
    const task = released.task;
    expect(task).toMatchObject({ status: 'SUCCEEDED', exitCode: 0, attempt: 1, onExit: 'release' });
    expect(task?.env).toEqual({ GREETING: 'hi', API_TOKEN: '****' });
    const [attempt] = task?.attempts ?? [];
    if (!attempt?.commandId) throw new Error('no command sent');
    const lines = await logLines(leaseId, attempt.attempt);
    expect(lines[0]).toBe('hello from attempt 1');
    expect(lines[1]).toBe(`s3://${stack.env.CHECKPOINT_BUCKET_NAME}/local-tenant/${leaseId}/`);
    // The bill closes at the task's end (the event's time), to the second.
    expect(released.endedAt).toBe(task?.endedAt);
    expect(released.instances[0]?.endedAt).toBe(task?.endedAt);
    const seconds = Math.max(
      60,
      Math.ceil(
        (Date.parse(task?.endedAt ?? '') - Date.parse(released.instances[0]?.launchedAt ?? '')) / 1000,
      ),
    );
    expect(released.instances[0]?.billedSeconds).toBe(seconds);
  }, 120_000);

  it('marks a task that exits 3 FAILED with exit code 3 and does not retry it', async () => {
    const leaseId = await createWithTask({ command: 'exit 3' });
    const released = await until('RELEASED', leaseId, (lease) => lease.status === 'RELEASED');
    expect(released.task).toMatchObject({ status: 'FAILED', exitCode: 3, attempt: 1 });
    expect(released.task?.failureReason).toContain('exited with code 3');
    expect(released.task?.attempts).toHaveLength(1);
  }, 120_000);

  it('shows a running task its output as it is written, and stops it when the lease is released: STOPPED, the process gone', async () => {
    const leaseId = await createWithTask({
      command: 'echo $$ > "$GPURENT_CHECKPOINT_DIR/pid"; echo "step 1 of many"; exec sleep 300',
    });
    const running = await until('RUNNING task', leaseId, (lease) => lease.task?.status === 'RUNNING');
    const first = running.task?.attempts[0];
    const pidFile = join(stack.tasks.checkpointDir(first?.commandId ?? '', first?.instanceId ?? ''), 'pid');
    const deadline = Date.now() + 10_000;
    while (!existsSync(pidFile) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    expect(processAlive(pid)).toBe(true);

    // The line is in the logs while the task still runs (it sleeps for five minutes after it).
    type Logs = { taskStatus: string; events: { message: string }[] };
    const logsBy = Date.now() + 20_000;
    let logs = (await api<Logs>('GET', `/v1/leases/${leaseId}/logs`)).body;
    while (logs.events.length === 0 && Date.now() < logsBy) {
      await new Promise((r) => setTimeout(r, 200));
      logs = (await api<Logs>('GET', `/v1/leases/${leaseId}/logs`)).body;
    }
    expect(logs.taskStatus).toBe('RUNNING');
    expect(logs.events.map((event) => event.message)).toEqual(['step 1 of many']);

    expect((await api('DELETE', `/v1/leases/${leaseId}`)).status).toBe(202);
    const released = await until('RELEASED', leaseId, (lease) => lease.status === 'RELEASED');
    expect(released.task?.status).toBe('STOPPED');
    const goneBy = Date.now() + 10_000;
    while (processAlive(pid) && Date.now() < goneBy) await new Promise((r) => setTimeout(r, 100));
    expect(processAlive(pid)).toBe(false);
  }, 120_000);

  it('resumes an interrupted spot task on its replacement from its checkpoint; the warned instance is terminated', async () => {
    const leaseId = await createWithTask(
      {
        command: [
          'if [ -f "$GPURENT_CHECKPOINT_DIR/step" ]; then echo "resumed from $(cat "$GPURENT_CHECKPOINT_DIR/step")";',
          'else echo "attempt $GPURENT_ATTEMPT" > "$GPURENT_CHECKPOINT_DIR/step"; exec sleep 300; fi',
        ].join(' '),
      },
      { mode: 'spot', workload: 'training' },
    );
    const running = await until('RUNNING task', leaseId, (lease) => lease.task?.status === 'RUNNING');
    const warned = running.instances[0];
    if (!warned) throw new Error('no instance');
    // Attempt 1's checkpoint reaches the lease's prefix in moto's S3 (the agent's periodic upload)
    // before the warning: attempt 2 starts in a fresh folder, filled only from there.
    const prefix = `local-tenant/${leaseId}/`;
    const deadline = Date.now() + 20_000;
    let keys: string[] = [];
    while (!keys.includes(`${prefix}step`) && Date.now() < deadline) {
      keys = await checkpointKeys(prefix);
      if (!keys.includes(`${prefix}step`)) await new Promise((r) => setTimeout(r, 200));
    }
    expect(keys).toEqual([`${prefix}step`]);
    expect(await checkpointText(`${prefix}step`)).toBe('attempt 1\n');
    // Dated two minutes back: the replacement is due at once.
    await putSpotWarning(
      stack.endpoints.events,
      warned.region ?? 'us-east-1',
      warned.instanceId,
      Date.now() - 120_000,
    );

    const released = await until('RELEASED', leaseId, (lease) => lease.status === 'RELEASED', 90_000);
    const task = released.task;
    expect(task).toMatchObject({ status: 'SUCCEEDED', attempt: 2, exitCode: 0 });
    expect(task?.attempts.map((a) => a.status)).toEqual(['INTERRUPTED', 'SUCCEEDED']);
    const second = task?.attempts[1];
    expect(second?.instanceId).not.toBe(warned.instanceId);
    expect(await logLines(leaseId, second?.attempt ?? 0)).toEqual(['resumed from attempt 1']);
    // The warned instance ended when its replacement took over, not when AWS got round to it.
    const old = released.instances.find((i) => i.instanceId === warned.instanceId);
    expect(old?.endedAt).toBeDefined();
    expect(Date.parse(old?.endedAt ?? '')).toBeLessThanOrEqual(
      Date.parse(second?.startedAt ?? task?.endedAt ?? ''),
    );
  }, 150_000);

  it.each([
    ['no command', { env: {} }, 'task.command'],
    ['a command over 64 KiB', { command: 'x'.repeat(65_537) }, 'task.command'],
    ['an image reference that is not one', { command: 'true', image: 'Not An Image!' }, 'task.image'],
    ['an env name outside the pattern', { command: 'true', env: { 'bad-name': 'x' } }, 'task.env.bad-name'],
    [
      'a secret name outside the pattern',
      { command: 'true', secrets: { lower: '/gpurent/local-tenant/x' } },
      'task.secrets.lower',
    ],
    ['maxRuntimeMinutes not whole', { command: 'true', maxRuntimeMinutes: 1.5 }, 'task.maxRuntimeMinutes'],
    [
      'maxRuntimeMinutes over 43200',
      { command: 'true', maxRuntimeMinutes: 43_201 },
      'task.maxRuntimeMinutes',
    ],
    ['maxAttempts over 10', { command: 'true', maxAttempts: 11 }, 'task.maxAttempts'],
    ['maxAttempts 0', { command: 'true', maxAttempts: 0 }, 'task.maxAttempts'],
    ['an unknown field', { command: 'true', gpus: 2 }, 'task'],
  ])(
    'refuses a task with %s: 400 VALIDATION_FAILED naming the field, nothing written',
    async (_what, task, field) => {
      const before = await api<{ leases: unknown[] }>('GET', '/v1/leases?limit=100');
      const refused = await api<{ error: { code: string; details: { path: string }[] } }>(
        'POST',
        '/v1/leases',
        {
          workload: 'batch',
          gpus: 1,
          task,
        },
      );
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe('VALIDATION_FAILED');
      expect(refused.body.error.details.map((d) => d.path)).toContain(field);
      const after = await api<{ leases: unknown[] }>('GET', '/v1/leases?limit=100');
      expect(after.body.leases).toHaveLength(before.body.leases.length);
    },
  );

  it('refuses a secret reference outside the tenant prefix, naming it', async () => {
    const refused = await api<{ error: { code: string } }>('POST', '/v1/leases', {
      workload: 'batch',
      gpus: 1,
      task: { command: 'true', secrets: { DB_PASSWORD: '/gpurent/other-tenant/db' } },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ path: 'task.secrets.DB_PASSWORD' }],
    });
  });
});
