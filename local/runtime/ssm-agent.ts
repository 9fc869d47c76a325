import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type CloudWatchLogsClient,
  CreateLogStreamCommand,
  PutLogEventsCommand,
} from '@aws-sdk/client-cloudwatch-logs';
import { DescribeInstancesCommand, type EC2Client } from '@aws-sdk/client-ec2';
import { type EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import type { S3Client } from '@aws-sdk/client-s3';
import { ListCommandsCommand, type SSMClient } from '@aws-sdk/client-ssm';
import { CHECKPOINT_REFRESH_COMMENT } from '../../shared/domain/tasks/checkpoint-access';
import { SSM_COMMAND_EVENT_TYPE } from '../../shared/domain/tasks/command-events';
import { checkpointPrefix, checkpointUri, taskLogStreams } from '../../shared/domain/tasks/log-streams';
import { taskScript } from '../../shared/domain/tasks/script';
import { LEASE_TAG, TENANT_TAG } from '../../shared/ports/compute';
import type { LeaseRepository } from '../../shared/ports/lease-repository';
import { type CheckpointSync, checkpointSync } from './checkpoint-sync';

export interface SsmAgentClients {
  readonly ssm: (region: string) => SSMClient;
  readonly ec2: (region: string) => EC2Client;
  readonly logs: CloudWatchLogsClient;
  readonly events: EventBridgeClient;
  /** moto's S3, where the checkpoint bucket is. */
  readonly s3: S3Client;
}

export interface SsmAgentOptions {
  readonly clients: SsmAgentClients;
  readonly leases: Pick<LeaseRepository, 'get'>;
  readonly regions: readonly string[];
  readonly homeRegion: string;
  readonly logGroupName: string;
  readonly checkpointBucket: string;
  /** Each command runs in a folder of its own under here, its checkpoint folder inside it. */
  readonly workRoot: string;
  /** Poll period; undefined: only explicit `tick()` calls. */
  readonly everyMs?: number | undefined;
  /** How often a running attempt's checkpoint folder is uploaded to its prefix. */
  readonly checkpointEveryMs: number;
}

export interface LocalSsmAgent {
  /** The attempt's GPURENT_CHECKPOINT_DIR: its copy of the lease's prefix, synced with moto's S3. */
  checkpointDir(commandId: string, instanceId: string): string;
  /** One round: start commands sent since the last, kill those whose instance is gone. */
  tick(): Promise<void>;
  stop(): Promise<void>;
}

interface Run {
  readonly commandId: string;
  readonly instanceId: string;
  readonly region: string;
  readonly child: ChildProcess;
  readonly checkpoints: CheckpointSync;
  killed: boolean;
  readonly output: { stdout: string[]; stderr: string[] };
  readonly done: Promise<void>;
}

const LIVE_STATES = new Set(['pending', 'running']);

/**
 * Plays the SSM agent of every running instance: moto stores SendCommand but
 * never runs it. Each AWS-RunShellScript command of a task is run for real,
 * as a child process (no Docker engine here: the command runs on this
 * machine, not in the image) in a working folder of its own with the same
 * variables; its output goes to moto's CloudWatch Logs under the streams SSM
 * names, and its status changes go onto the default bus as SSM's events, so
 * the same rule and queue carry them to the task-events handler. A command
 * whose instance is terminated is killed, as the instance's end kills it.
 * Checkpoints live in moto's S3 at GPURENT_CHECKPOINT_URI: the prefix is
 * copied into the attempt's GPURENT_CHECKPOINT_DIR before it starts, and the
 * folder back every few seconds, when it ends, and before it is killed.
 */
export function startLocalSsmAgent(options: SsmAgentOptions): LocalSsmAgent {
  const { clients } = options;
  const seen = new Set<string>();
  const runs = new Map<string, Run>();
  const runFolder = (commandId: string, instanceId: string) =>
    join(options.workRoot, 'runs', `${commandId}-${instanceId}`);
  const checkpointDir = (commandId: string, instanceId: string) =>
    join(runFolder(commandId, instanceId), 'checkpoints');

  async function emit(run: Pick<Run, 'commandId' | 'instanceId'>, status: string, exitCode?: number) {
    const result = await clients.events.send(
      new PutEventsCommand({
        Entries: [
          {
            Source: 'aws.ssm',
            DetailType: SSM_COMMAND_EVENT_TYPE,
            Time: new Date(),
            Resources: [`arn:aws:ec2:${options.homeRegion}:123456789012:instance/${run.instanceId}`],
            Detail: JSON.stringify({
              'command-id': run.commandId,
              'instance-id': run.instanceId,
              'document-name': 'AWS-RunShellScript',
              status,
              ...(exitCode === undefined ? {} : { 'exit-code': exitCode }),
            }),
          },
        ],
      }),
    );
    if (result.FailedEntryCount)
      throw new Error(`EventBridge refused the SSM event: ${JSON.stringify(result.Entries)}`);
  }

  async function writeLogs(run: Run) {
    const streams = taskLogStreams(run.commandId, run.instanceId);
    for (const [name, lines] of [
      [streams.stdout, run.output.stdout],
      [streams.stderr, run.output.stderr],
    ] as const) {
      const text = lines.join('');
      if (text === '') continue;
      await clients.logs.send(
        new CreateLogStreamCommand({ logGroupName: options.logGroupName, logStreamName: name }),
      );
      const timestamp = Date.now();
      await clients.logs.send(
        new PutLogEventsCommand({
          logGroupName: options.logGroupName,
          logStreamName: name,
          logEvents: text
            .replace(/\n$/, '')
            .split('\n')
            .map((message) => ({ timestamp, message })),
        }),
      );
    }
  }

  async function instanceTags(region: string, instanceId: string) {
    const described = await clients
      .ec2(region)
      .send(new DescribeInstancesCommand({ InstanceIds: [instanceId] }));
    const instance = described.Reservations?.[0]?.Instances?.[0];
    const tag = (key: string) => instance?.Tags?.find((t) => t.Key === key)?.Value;
    return {
      state: instance?.State?.Name ?? 'terminated',
      leaseId: tag(LEASE_TAG),
      tenantId: tag(TENANT_TAG),
    };
  }

  /** Starts one invocation; false when its lease does not know the command yet (tried again next round). */
  async function launch(region: string, commandId: string, instanceId: string): Promise<boolean> {
    const { tenantId, leaseId, state } = await instanceTags(region, instanceId);
    if (!tenantId || !leaseId || !LIVE_STATES.has(state)) return true;
    const lease = await options.leases.get(tenantId, leaseId);
    const attempt = lease?.task?.attempts.find((a) => a.commandId === commandId);
    if (!lease?.task) return true;
    if (!attempt) return false;
    const folder = runFolder(commandId, instanceId);
    const checkpoints = checkpointDir(commandId, instanceId);
    await mkdir(folder, { recursive: true });
    const sync = checkpointSync(
      clients.s3,
      options.checkpointBucket,
      checkpointPrefix(tenantId, leaseId),
      checkpoints,
    );
    await sync.download();
    // The machine has no /workspace of the image's: workdir is left out, the run's folder is the cwd.
    const script = taskScript(
      { ...lease.task.spec, workdir: undefined },
      {
        tenantId,
        attempt: attempt.attempt,
        checkpointUri: checkpointUri(options.checkpointBucket, tenantId, leaseId),
        runtime: 'host',
      },
    );
    const child = spawn('/bin/bash', ['-c', script.join('\n')], {
      cwd: folder,
      detached: true,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: folder, GPURENT_CHECKPOINT_DIR: checkpoints },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output = { stdout: [] as string[], stderr: [] as string[] };
    child.stdout?.on('data', (chunk: Buffer) => output.stdout.push(chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => output.stderr.push(chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const periodic = setInterval(() => {
      sync.upload().catch((error) => console.error('local SSM agent: checkpoint upload:', error));
    }, options.checkpointEveryMs);
    const run: Run = {
      commandId,
      instanceId,
      region,
      child,
      checkpoints: sync,
      killed: false,
      output,
      done: exited.then(async (code) => {
        clearInterval(periodic);
        runs.delete(commandId);
        // Before the end is told: a retry sent on it must find what this attempt saved.
        if (!run.killed) await sync.upload();
        await writeLogs(run);
        if (run.killed) await emit(run, 'Cancelled');
        else await emit(run, code === 0 ? 'Success' : 'Failed', code ?? -1);
      }),
    };
    runs.set(commandId, run);
    await emit(run, 'InProgress');
    return true;
  }

  /** As an instance's shutdown would: the attempt's checkpoints are uploaded, then the process is gone. */
  async function kill(run: Run) {
    if (run.killed) return;
    run.killed = true;
    await run.checkpoints
      .upload()
      .catch((error) => console.error('local SSM agent: checkpoint upload before kill:', error));
    try {
      if (run.child.pid !== undefined) process.kill(-run.child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }

  async function tick() {
    // Instances gone first: an attempt never outlives its instance, even for one round.
    for (const run of [...runs.values()]) {
      const { state } = await instanceTags(run.region, run.instanceId);
      if (!LIVE_STATES.has(state)) await kill(run);
    }
    for (const region of options.regions) {
      const listed = await clients.ssm(region).send(new ListCommandsCommand({}));
      for (const command of listed.Commands ?? []) {
        const commandId = command.CommandId ?? '';
        if (seen.has(commandId) || command.DocumentName !== 'AWS-RunShellScript') continue;
        // A credentials refresh is no attempt: here the agent itself keeps the checkpoints in moto's S3.
        if (command.Comment === CHECKPOINT_REFRESH_COMMENT) {
          seen.add(commandId);
          continue;
        }
        let started = true;
        for (const instanceId of command.InstanceIds ?? []) {
          started = (await launch(region, commandId, instanceId)) && started;
        }
        if (started) seen.add(commandId);
      }
    }
  }

  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const loop = async () => {
    try {
      await tick();
    } catch (error) {
      console.error('local SSM agent:', error);
    }
    if (!stopped && options.everyMs !== undefined) timer = setTimeout(loop, options.everyMs);
  };
  if (options.everyMs !== undefined) timer = setTimeout(loop, options.everyMs);

  return {
    checkpointDir,
    tick,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      const pending = [...runs.values()];
      await Promise.all(pending.map(kill));
      await Promise.allSettled(pending.map((run) => run.done));
    },
  };
}
