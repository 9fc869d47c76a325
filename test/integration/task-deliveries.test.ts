import { DescribeImagesCommand, RunInstancesCommand, TerminateInstancesCommand } from '@aws-sdk/client-ec2';
import { ListCommandsCommand, SendCommandCommand, SSMClient } from '@aws-sdk/client-ssm';
import type { SQSEvent } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { lambdaContext } from '../../local/runtime/lambda-context';
import { awsProbe } from '../support/aws';
import { type Harness, startHarness } from '../support/harness';
import { runQueuedCommands, sqsRecord, ssmCommandEvent } from '../support/leases';

let h: Harness;
let worker: typeof import('../../functions/lease-worker/handler').handler;
let taskEvents: typeof import('../../functions/task-events/handler').handler;

beforeAll(async () => {
  h = await startHarness();
  ({ handler: worker } = await import('../../functions/lease-worker/handler'));
  ({ handler: taskEvents } = await import('../../functions/task-events/handler'));
});

const TENANT = 'tenant-dup';
const queueUrl = () => h.env.LEASE_COMMANDS_QUEUE_URL ?? '';
const batch = (...bodies: object[]): SQSEvent => ({ Records: bodies.map((body) => sqsRecord(body)) });

const ssmEvent = (instanceId: string, commandId: string, status: string, atMs: number) =>
  ssmCommandEvent('us-east-1', instanceId, commandId, status, atMs);

describe('duplicate deliveries on the emulators never run a task twice', () => {
  it("a provision and SSM status events each delivered twice in one batch: one SendCommand, one release in the end's delivery, one bill close", async () => {
    const created = await h.call(TENANT, 'POST /v1/leases', {
      body: { workload: 'training', gpus: 1, task: { command: ['true'] } },
    });
    expect(created.status).toBe(202);
    const leaseId = String(created.body.leaseId);
    await awsProbe().purge(queueUrl());

    // An instance of the region that is not the lease's: the command must not name it.
    const { ec2 } = awsProbe();
    const [image] = (await ec2.send(new DescribeImagesCommand({}))).Images ?? [];
    const stranger = (
      await ec2.send(new RunInstancesCommand({ ImageId: image?.ImageId, MinCount: 1, MaxCount: 1 }))
    ).Instances?.[0]?.InstanceId;

    const provision = { type: 'provision', tenantId: TENANT, leaseId };
    await worker(batch(provision, provision), lambdaContext('lease-worker', 120_000));
    // The copy that found the first in progress is retried: it reuses the first run's result.
    await worker(batch(provision), lambdaContext('lease-worker', 120_000));

    const running = await h.stores.leases.get(TENANT, leaseId);
    expect(running?.status).toBe('RUNNING');
    const instanceId = running?.instances[0]?.instanceId ?? '';
    const listed = await new SSMClient({ region: 'us-east-1' }).send(
      new ListCommandsCommand({ InstanceId: instanceId }),
    );
    expect(listed.Commands?.map((c) => c.CommandId)).toEqual([running?.task?.attempts[0]?.commandId]);
    // As in AWS, sent to the instance named only (moto's empty-Targets fan-out is patched at its start-up).
    expect(listed.Commands?.[0]?.InstanceIds).toEqual([instanceId]);
    await ec2.send(new TerminateInstancesCommand({ InstanceIds: [stranger ?? ''] }));
    const commandId = running?.task?.attempts[0]?.commandId ?? '';

    const startedAtMs = Date.now();
    const started = ssmEvent(instanceId, commandId, 'InProgress', startedAtMs);
    const exitedAtMs = startedAtMs + 2_000;
    const exited = ssmEvent(instanceId, commandId, 'Success', exitedAtMs);
    await taskEvents(batch(started, started), lambdaContext('task-events', 30_000));
    await taskEvents(batch(exited, exited), lambdaContext('task-events', 30_000));
    await taskEvents(batch(exited), lambdaContext('task-events', 30_000));

    // Released by the end's own delivery: the release command waits, held back, as the backstop.
    const released = await h.stores.leases.get(TENANT, leaseId);
    expect(released?.status).toBe('RELEASED');
    expect(await runQueuedCommands(queueUrl(), worker)).toBe(0);
    expect(await awsProbe().delayedCount(queueUrl())).toBe(1);
    expect(released?.task).toMatchObject({ status: 'SUCCEEDED', exitCode: 0, attempt: 1 });
    const [instance] = released?.instances ?? [];
    expect(instance).toMatchObject({ meteringOpen: false, endedAtMs: exitedAtMs });
    expect(instance?.billedSeconds).toBe(
      Math.max(60, Math.ceil((exitedAtMs - (instance?.launchedAtMs ?? 0)) / 1000)),
    );
  });
});

describe("moto's ListCommands, as the local SSM agent polls it", () => {
  it('applies InvokedAfter (inclusive) and DocumentName as AWS does, instead of listing every command ever sent', async () => {
    const ssm = new SSMClient({ region: 'us-east-1' });
    const sent: string[] = [];
    for (const n of [1, 2, 3]) {
      const { Command } = await ssm.send(
        new SendCommandCommand({
          InstanceIds: ['i-0000000000000000a'],
          DocumentName: 'AWS-RunShellScript',
          Parameters: { commands: [`echo ${n}`] },
        }),
      );
      sent.push(Command?.CommandId ?? '');
    }
    const all = (await ssm.send(new ListCommandsCommand({}))).Commands ?? [];
    const second = all.find((c) => c.CommandId === sent[1])?.RequestedDateTime;
    expect(second).toBeInstanceOf(Date);
    const since = (
      await ssm.send(
        new ListCommandsCommand({ Filters: [{ key: 'InvokedAfter', value: second?.toISOString() ?? '' }] }),
      )
    ).Commands?.map((c) => c.CommandId);
    expect(since).toContain(sent[1]);
    expect(since).toContain(sent[2]);
    expect(since).not.toContain(sent[0]);
    expect(since?.length).toBeLessThan(all.length);
    const otherDocument = await ssm.send(
      new ListCommandsCommand({
        Filters: [
          { key: 'InvokedAfter', value: second?.toISOString() ?? '' },
          { key: 'DocumentName', value: 'AWS-RunPowerShellScript' },
        ],
      }),
    );
    expect(otherDocument.Commands).toEqual([]);
  });
});
