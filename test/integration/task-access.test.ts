/**
 * Task logs and lease sessions through the real API handler on the emulators
 * (moto's CloudWatch Logs and STS). Until the task core (issue #16, the `task`
 * field of POST /v1/leases) is merged, the task is written onto the lease item
 * as the core stores it; once merged, `withTask` can be a POST with a task and
 * the output the local SSM agent writes.
 */
import {
  CloudWatchLogsClient,
  CreateLogStreamCommand,
  PutLogEventsCommand,
} from '@aws-sdk/client-cloudwatch-logs';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { leaseKey, tenantKey } from '../../shared/adapters/dynamodb-keys';
import { taskLogStreams } from '../../shared/domain/tasks/log-streams';
import type { TaskState } from '../../shared/domain/tasks/state';
import { storedTask } from '../support/fakes/task-access';
import { type Harness, startHarness } from '../support/harness';

/** The stream one output of a lease's attempt is shipped to, with the lease's own credentials. */
const logStream = (leaseId: string, a: { attempt: number }, output: 'stdout' | 'stderr') =>
  taskLogStreams(leaseId, a.attempt)[output];

let harness: Harness;
let logs: CloudWatchLogsClient;

beforeAll(async () => {
  harness = await startHarness();
  logs = new CloudWatchLogsClient({});
});

const TENANT = 'tenant-tasks';
const LOGS = 'GET /v1/leases/{id}/logs';
const SESSION = 'POST /v1/leases/{id}/session';

async function withTask(leaseId: string, task: TaskState) {
  await harness.stores.documents.send(
    new UpdateCommand({
      TableName: harness.env.LEASES_TABLE_NAME,
      Key: { pk: tenantKey(TENANT), sk: leaseKey(leaseId) },
      UpdateExpression: 'SET task = :task',
      ExpressionAttributeValues: { ':task': task },
    }),
  );
}

async function write(stream: string, lines: readonly { at: number; message: string }[]) {
  const logGroupName = harness.env.TASK_LOG_GROUP_NAME;
  await logs
    .send(new CreateLogStreamCommand({ logGroupName, logStreamName: stream }))
    .catch((error: Error) => {
      if (error.name !== 'ResourceAlreadyExistsException') throw error;
    });
  await logs.send(
    new PutLogEventsCommand({
      logGroupName,
      logStreamName: stream,
      logEvents: lines.map((line) => ({ timestamp: line.at, message: line.message })),
    }),
  );
}

describe('GET /v1/leases/{id}/logs', () => {
  it("pages the task's stdout and stderr from CloudWatch Logs and follows with nextToken", async () => {
    const { leaseId, instances } = await harness.runningLease(TENANT, { workload: 'batch', gpus: 1 });
    const attempt = {
      attempt: 1,
      instanceId: instances[0]?.instanceId ?? '',
      commandId: 'cmd-1',
    };
    await withTask(leaseId, storedTask({ status: 'RUNNING', attempt: 1, attempts: [attempt] }));
    const t0 = Date.now() - 60_000;
    await write(logStream(leaseId, attempt, 'stdout'), [
      { at: t0, message: 'loading data' },
      { at: t0 + 2000, message: 'epoch 1 loss 0.9' },
    ]);
    await write(logStream(leaseId, attempt, 'stderr'), [{ at: t0 + 1000, message: 'warning: slow disk' }]);

    const first = await harness.call(TENANT, LOGS, { params: { id: leaseId } });
    expect(first.status).toBe(200);
    expect(first.body.events.map((e: { stream: string; message: string }) => [e.stream, e.message])).toEqual([
      ['stdout', 'loading data'],
      ['stderr', 'warning: slow disk'],
      ['stdout', 'epoch 1 loss 0.9'],
    ]);
    expect(first.body).toMatchObject({ attempt: 1, taskStatus: 'RUNNING', complete: false });

    await write(logStream(leaseId, attempt, 'stdout'), [{ at: t0 + 3000, message: 'epoch 2 loss 0.5' }]);
    const next = await harness.call(TENANT, LOGS, {
      params: { id: leaseId },
      query: { nextToken: first.body.nextToken },
    });
    expect(next.body.events.map((e: { message: string }) => e.message)).toEqual(['epoch 2 loss 0.5']);

    await withTask(
      leaseId,
      storedTask({ status: 'SUCCEEDED', attempt: 1, exitCode: 0, attempts: [attempt] }),
    );
    const end = await harness.call(TENANT, LOGS, {
      params: { id: leaseId },
      query: { nextToken: next.body.nextToken },
    });
    expect(end.body).toMatchObject({ events: [], complete: true, taskStatus: 'SUCCEEDED', exitCode: 0 });

    const since = await harness.call(TENANT, LOGS, {
      params: { id: leaseId },
      query: { since: new Date(t0 + 1500).toISOString() },
    });
    expect(since.body.events.map((e: { message: string }) => e.message)).toEqual([
      'epoch 1 loss 0.9',
      'epoch 2 loss 0.5',
    ]);
  });

  it("shows only the lease's own streams: lines another machine wrote under SSM's or another lease's names are not its output", async () => {
    const { leaseId, instances } = await harness.runningLease(TENANT, { workload: 'batch', gpus: 1 });
    const victim = await harness.runningLease('tenant-tasks-other', { workload: 'batch', gpus: 1 });
    const instanceId = instances[0]?.instanceId ?? '';
    const attempt = { attempt: 1, instanceId, commandId: 'cmd-own' };
    await withTask(leaseId, storedTask({ status: 'RUNNING', attempt: 1, attempts: [attempt] }));
    const t0 = Date.now() - 60_000;
    await write(logStream(leaseId, attempt, 'stdout'), [{ at: t0, message: 'own line' }]);
    // Where SSM's CloudWatch output (the instance role) used to write, and the other tenant's lease's stream:
    // neither is under this lease's prefix, so no credentials of this lease's machine wrote them.
    await write(`cmd-own/${instanceId}/aws-runShellScript/stdout`, [
      { at: t0 + 1, message: 'planted by SSM name' },
    ]);
    await write(logStream(victim.leaseId, attempt, 'stdout'), [{ at: t0 + 2, message: 'the other lease' }]);

    const page = await harness.call(TENANT, LOGS, { params: { id: leaseId } });
    expect(page.status).toBe(200);
    expect(page.body.events.map((e: { message: string }) => e.message)).toEqual(['own line']);
  });

  it("answers 409 for a lease without a task, 404 for another tenant's, 400 for a bad token", async () => {
    const { leaseId } = await harness.runningLease(TENANT, { workload: 'batch', gpus: 1 });
    const noTask = await harness.call(TENANT, LOGS, { params: { id: leaseId } });
    expect(noTask.status).toBe(409);
    expect(noTask.body.error.code).toBe('LEASE_HAS_NO_TASK');
    await withTask(leaseId, storedTask({ status: 'WAITING', attempt: 0, attempts: [] }));
    const other = await harness.call('tenant-tasks-other', LOGS, { params: { id: leaseId } });
    expect(other.status).toBe(404);
    expect(other.body.error.code).toBe('LEASE_NOT_FOUND');
    const badToken = await harness.call(TENANT, LOGS, {
      params: { id: leaseId },
      query: { nextToken: 'nope' },
    });
    expect(badToken.status).toBe(400);
    expect(badToken.body.error.code).toBe('INVALID_NEXT_TOKEN');
    const badAttempt = await harness.call(TENANT, LOGS, { params: { id: leaseId }, query: { attempt: '0' } });
    expect(badAttempt.status).toBe(400);
    expect(badAttempt.body.error.code).toBe('VALIDATION_FAILED');
  });
});

describe('POST /v1/leases/{id}/session', () => {
  it("hands out STS credentials for an hour, with the command for each of the lease's instances", async () => {
    const { leaseId, instances } = await harness.runningLease(TENANT, { workload: 'training', gpus: 1 });
    const before = Date.now();
    const session = await harness.call(TENANT, SESSION, { params: { id: leaseId } });
    expect(session.status).toBe(201);
    expect(session.body.credentials.accessKeyId).toMatch(/^ASIA/);
    expect(session.body.credentials.sessionToken.length).toBeGreaterThan(0);
    const expiresAtMs = Date.parse(session.body.expiresAt);
    expect(expiresAtMs - before).toBeLessThanOrEqual(3_600_000 + 5_000);
    expect(session.body.instances).toEqual(
      instances.map((instance) => ({
        instanceId: instance.instanceId,
        region: instance.region,
        command: `aws ssm start-session --target ${instance.instanceId} --region ${instance.region}`,
      })),
    );
  });

  it("answers 409 for a lease that is not RUNNING and 404 for another tenant's", async () => {
    const { leaseId } = await harness.runningLease(TENANT, { workload: 'batch', gpus: 1 });
    const other = await harness.call('tenant-tasks-other', SESSION, { params: { id: leaseId } });
    expect(other.status).toBe(404);
    await harness.call(TENANT, 'DELETE /v1/leases/{id}', { params: { id: leaseId } });
    const released = await harness.call(TENANT, SESSION, { params: { id: leaseId } });
    expect(released.status).toBe(409);
    expect(released.body.error.code).toBe('LEASE_NOT_RUNNING');
  });
});
