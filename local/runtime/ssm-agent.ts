import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import type { CloudWatchLogsClient } from '@aws-sdk/client-cloudwatch-logs';
import {
  DescribeInstancesCommand,
  type DescribeInstancesCommandOutput,
  type EC2Client,
} from '@aws-sdk/client-ec2';
import { type EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import type { S3Client } from '@aws-sdk/client-s3';
import { ListCommandsCommand, type SSMClient } from '@aws-sdk/client-ssm';
import { settleAll } from '../../shared/concurrency';
import { PROGRESS_FILE_NAME } from '../../shared/domain/deadlines/progress-file';
import type { LeaseView } from '../../shared/domain/lease';
import { SSM_COMMAND_EVENT_TYPE } from '../../shared/domain/tasks/command-events';
import {
  credentialsInScript,
  LEASE_MACHINE_REFRESH_COMMENT,
  type LeaseMachineCredentials,
} from '../../shared/domain/tasks/lease-machine-access';
import { checkpointPrefix, checkpointUri, taskLogStreams } from '../../shared/domain/tasks/log-streams';
import { taskScript } from '../../shared/domain/tasks/script';
import { awaitsCommandId, type TaskAttempt, type TaskState } from '../../shared/domain/tasks/state';
import { LEASE_TAG, TENANT_TAG } from '../../shared/ports/compute';
import type { LeaseRepository } from '../../shared/ports/lease-repository';
import { type CheckpointSync, checkpointSync } from './checkpoint-sync';
import { type DockerEngine, removeContainer } from './docker-engine';
import { outputShipper } from './output-shipper';
import { type LaunchedProcess, startProcessLauncher } from './process-launcher';

/** The clients a machine acts for its lease with: signed with the lease's machine credentials. */
export interface LeaseMachineClients {
  readonly logs: CloudWatchLogsClient;
  /** moto's S3, where the checkpoint bucket is. */
  readonly s3: S3Client;
  readonly cloudWatch: CloudWatchClient;
}

/** The credentials of a machine's lease, as an SDK client asks for them (the latest delivered). */
export type MachineCredentialsProvider = () => Promise<{
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string;
  expiration: Date;
}>;

export interface SsmAgentClients {
  readonly ssm: (region: string) => SSMClient;
  readonly ec2: (region: string) => EC2Client;
  readonly events: EventBridgeClient;
  /** Clients signed with a machine's lease credentials, which the control plane sent it. */
  readonly leaseMachine: (credentials: MachineCredentialsProvider) => LeaseMachineClients;
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
  /** How often a running attempt's new output lines are sent to its log streams. */
  readonly outputEveryMs: number;
  /** The Docker engine tasks with an image run on; undefined: every task runs as a child process. */
  readonly docker?: DockerEngine | undefined;
}

export interface LocalSsmAgent {
  /** The engine tasks with an image run on, if the machine has one. */
  readonly docker: DockerEngine | undefined;
  /**
   * The clients the machine acts for its lease with, signed with the lease
   * credentials the control plane last sent it (by an attempt or a
   * delivery); undefined while it got none, as a machine whose agent has
   * nothing to run with.
   */
  leaseClientsOf(instanceId: string): LeaseMachineClients | undefined;
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
  readonly process: LaunchedProcess;
  readonly checkpoints: CheckpointSync;
  /** The container it runs in, when the task has an image and the machine an engine. */
  readonly containerName?: string | undefined;
  killed: boolean;
  readonly done: Promise<void>;
}

const LIVE_STATES = new Set(['pending', 'running']);
/** How far each list reaches back before the newest command listed: one stored while a round listed is not missed. */
const LISTING_OVERLAP_MS = 5_000;

/** InvokedAfter as SSM documents it (`2021-07-07T00:00:00Z`): floored to the second, so nothing at the edge is lost. */
const secondsPrecision = (ms: number) =>
  `${new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19)}Z`;

interface InstanceFacts {
  readonly state: string;
  readonly leaseId: string | undefined;
  readonly tenantId: string | undefined;
}

/**
 * Plays the SSM agent of every running instance: moto stores SendCommand but
 * never runs it. Each AWS-RunShellScript command of a task is run for real,
 * as a child process in a working folder of its own with the same
 * variables: in its image on the machine's Docker engine when it has one
 * (without `--gpus all` unless the engine has NVIDIA's runtime), otherwise
 * on this machine itself, not in the image. Everything it does for the lease
 * it does with the lease's machine credentials that the control plane put in
 * the commands it sent the machine (an attempt's, or a delivery's), as the
 * machine's own agent and scripts do on AWS: its output goes to moto's
 * CloudWatch Logs under the lease's own streams as it is written
 * (`outputShipper`), and its status changes go onto the default bus as SSM's
 * events, so the same rule and queue carry them to the task-events handler. A
 * command whose instance is terminated is killed, as the instance's end kills
 * it. Checkpoints live in moto's S3 at GPURENT_CHECKPOINT_URI: the prefix is
 * copied into the attempt's GPURENT_CHECKPOINT_DIR before it starts, and the
 * folder back every few seconds, when it ends, and before it is killed.
 */
export function startLocalSsmAgent(options: SsmAgentOptions): LocalSsmAgent {
  const { clients } = options;
  const seen = new Set<string>();
  const spawned = new Set<string>();
  /** Commands listed and not yet started or given up on, with when they were sent: the next lists reach back to them. */
  const unsettled = new Map<string, number>();
  /**
   * Where a round's list starts, on moto's clock: a little before the newest
   * command listed so far (one stored while the last round listed is not
   * missed), or at the oldest command still to be started. Without it every
   * round listed every command ever sent, each with its whole script (see
   * moto-startup/sitecustomize.py).
   */
  let newestListedMs: number | undefined;
  const listedSince = () =>
    Math.min(newestListedMs === undefined ? 0 : newestListedMs - LISTING_OVERLAP_MS, ...unsettled.values());
  const runs = new Map<string, Run>();
  /** Each machine's latest lease credentials, from the commands the control plane sent it. */
  const machineCredentials = new Map<string, LeaseMachineCredentials>();
  const machineClients = new Map<string, LeaseMachineClients>();
  function leaseClientsOf(instanceId: string): LeaseMachineClients | undefined {
    if (!machineCredentials.has(instanceId)) return undefined;
    let made = machineClients.get(instanceId);
    if (made === undefined) {
      made = clients.leaseMachine(async () => {
        const current = machineCredentials.get(instanceId);
        if (current === undefined) throw new Error(`local SSM agent: ${instanceId} has no lease credentials`);
        return { ...current, expiration: new Date(current.expiresAtMs) };
      });
      machineClients.set(instanceId, made);
    }
    return made;
  }
  /** The credentials a command carries, kept for each machine it names. */
  function keepCredentials(instanceIds: readonly string[], commands: readonly string[] | undefined) {
    const credentials = credentialsInScript(commands ?? []);
    if (credentials === undefined) return;
    for (const instanceId of instanceIds) machineCredentials.set(instanceId, credentials);
  }
  const launcher = startProcessLauncher();
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

  /**
   * The state and lease tags of each of `instanceIds`, in one call (a
   * round's commands in the region). By id, not by an instance-id filter,
   * which makes moto walk every instance it has; an id it does not know (a
   * command sent to no instance of ours) costs one call per id instead, so
   * it fails no other command's start.
   */
  async function describe(
    region: string,
    instanceIds: readonly string[],
  ): Promise<Map<string, InstanceFacts>> {
    const facts = new Map<string, InstanceFacts>();
    if (instanceIds.length === 0) return facts;
    let described: DescribeInstancesCommandOutput;
    try {
      described = await clients
        .ec2(region)
        .send(new DescribeInstancesCommand({ InstanceIds: [...instanceIds] }));
    } catch (error) {
      if ((error as { name?: string }).name !== 'InvalidInstanceID.NotFound') throw error;
      if (instanceIds.length === 1) return facts;
      const each = await Promise.all(instanceIds.map((instanceId) => describe(region, [instanceId])));
      return new Map(each.flatMap((one) => [...one]));
    }
    for (const instance of (described.Reservations ?? []).flatMap((r) => r.Instances ?? [])) {
      const tag = (key: string) => instance.Tags?.find((t) => t.Key === key)?.Value;
      facts.set(instance.InstanceId ?? '', {
        state: instance.State?.Name ?? 'terminated',
        leaseId: tag(LEASE_TAG),
        tenantId: tag(TENANT_TAG),
      });
    }
    return facts;
  }

  /** Runs one attempt on its instance: the lease recorded this command as the attempt's. */
  async function launch(
    region: string,
    commandId: string,
    instanceId: string,
    lease: LeaseView & { task: TaskState },
    attempt: TaskAttempt,
  ): Promise<void> {
    const { tenantId, leaseId } = lease;
    const folder = runFolder(commandId, instanceId);
    const checkpoints = checkpointDir(commandId, instanceId);
    await mkdir(folder, { recursive: true });
    // The attempt's command carried the lease's credentials: its checkpoints and output go with them.
    const machine = leaseClientsOf(instanceId);
    if (machine === undefined) throw new Error(`local SSM agent: ${commandId} carried no lease credentials`);
    const sync = checkpointSync(
      machine.s3,
      options.checkpointBucket,
      checkpointPrefix(tenantId, leaseId),
      checkpoints,
    );
    // A lease's prefix is written only by its attempts' instances: the first attempt finds it empty.
    if (attempt.attempt > 1) await sync.download();
    else await mkdir(checkpoints, { recursive: true });
    // A task with an image runs in a container of its own on the machine's engine, if it has one.
    const engine = lease.task.spec.image === undefined ? undefined : options.docker;
    const container = engine && { gpus: engine.gpus, name: `gpurent-${commandId}-${instanceId}` };
    const folderVariables = {
      GPURENT_CHECKPOINT_DIR: checkpoints,
      // In the synced folder: it reaches the control plane with the checkpoint it describes.
      GPURENT_PROGRESS_FILE: join(checkpoints, PROGRESS_FILE_NAME),
    };
    const credentials = machineCredentials.get(instanceId);
    const context = {
      tenantId,
      attempt: attempt.attempt,
      checkpointUri: checkpointUri(options.checkpointBucket, tenantId, leaseId),
      // The same credential files and profile as on an instance, in the run's folder instead of /run/gpurent.
      machineAccess: credentials && { leaseId, credentials, root: join(folder, 'machine') },
    };
    const script =
      container === undefined
        ? // The machine has no /workspace of the image's: workdir is left out, the run's folder is the cwd.
          taskScript({ ...lease.task.spec, workdir: undefined }, { ...context, runtime: 'host' })
        : taskScript(
            // The container sees the attempt's checkpoint folder at the same path, under the same name.
            { ...lease.task.spec, env: { ...lease.task.spec.env, ...folderVariables } },
            {
              ...context,
              runtime: 'container',
              localEngine: { gpus: container.gpus, mounts: [checkpoints], containerName: container.name },
            },
          );
    const launched = await launcher.launch({
      command: '/bin/bash',
      args: ['-c', script.join('\n')],
      cwd: folder,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: folder,
        ...folderVariables,
      },
    });
    spawned.add(commandId);
    const periodic = setInterval(() => {
      sync.upload().catch((error) => console.error('local SSM agent: checkpoint upload:', error));
    }, options.checkpointEveryMs);
    const streams = taskLogStreams(leaseId, attempt.attempt);
    const output = outputShipper(machine.logs, options.logGroupName, [
      { logStreamName: streams.stdout, chunks: launched.output.stdout },
      { logStreamName: streams.stderr, chunks: launched.output.stderr },
    ]);
    const streaming = setInterval(() => {
      output.ship(false).catch((error) => console.error('local SSM agent: task output:', error));
    }, options.outputEveryMs);
    const run: Run = {
      commandId,
      instanceId,
      region,
      process: launched,
      checkpoints: sync,
      containerName: container?.name,
      killed: false,
      done: launched.exited.then(async (code) => {
        clearInterval(periodic);
        clearInterval(streaming);
        runs.delete(commandId);
        // Before the end is told: a retry sent on it must find what this attempt saved.
        if (!run.killed) await sync.upload();
        // Before the end is told too: a follower stops at the first empty page after it.
        await output.ship(true);
        if (run.killed) await emit(run, 'Cancelled');
        else await emit(run, code === 0 ? 'Success' : 'Failed', code ?? -1);
      }),
    };
    runs.set(commandId, run);
    await emit(run, 'InProgress');
  }

  /**
   * Finds the one instance a command was sent to and runs it there: one
   * whose lease recorded the command as its attempt (moto 5.2 named every
   * instance of the region in a command sent to one until the local
   * emulators' sitecustomize.py patched it; the check also keeps a command
   * gpurent did not send from running). `pending` when an instance's
   * lease is still writing the id of the attempt being sent (tried next round);
   * `done` once it runs, or when no lease of the region will ever claim it.
   */
  async function startCommand(
    region: string,
    commandId: string,
    instanceIds: readonly string[],
    leaseOf: (tenantId: string, leaseId: string) => Promise<LeaseView | undefined>,
    /** The round's DescribeInstances of the region, covering `instanceIds`. */
    instanceFacts: Promise<Map<string, InstanceFacts>>,
  ): Promise<'done' | 'pending'> {
    let pending = false;
    const described = await instanceFacts;
    for (const instanceId of instanceIds) {
      const facts = described.get(instanceId);
      if (!facts?.tenantId || !facts.leaseId || !LIVE_STATES.has(facts.state)) continue;
      const lease = await leaseOf(facts.tenantId, facts.leaseId);
      const task = lease?.task;
      if (!lease || !task) continue;
      const attempt = task.attempts.find((a) => a.commandId === commandId && a.instanceId === instanceId);
      if (attempt) {
        await launch(region, commandId, instanceId, { ...lease, task }, attempt);
        return 'done';
      }
      if (awaitsCommandId(task, instanceId, commandId)) pending = true;
    }
    return pending ? 'pending' : 'done';
  }

  /** As an instance's shutdown would: the attempt's checkpoints are uploaded, then the process is gone. */
  async function kill(run: Run) {
    if (run.killed) return;
    run.killed = true;
    await run.checkpoints
      .upload()
      .catch((error) => console.error('local SSM agent: checkpoint upload before kill:', error));
    try {
      process.kill(-run.process.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
    if (run.containerName !== undefined)
      await removeContainer(run.containerName).catch((error) =>
        console.error('local SSM agent: removing the container of a killed attempt:', error),
      );
  }

  /** One round; the commands it starts are returned unawaited. */
  async function round(): Promise<Promise<void>[]> {
    // Instances gone first: an attempt never outlives its instance, even for one round.
    for (const region of new Set([...runs.values()].map((run) => run.region))) {
      const live = [...runs.values()].filter((run) => run.region === region);
      const facts = await describe(
        region,
        live.map((run) => run.instanceId),
      );
      for (const run of live) {
        if (!LIVE_STATES.has(facts.get(run.instanceId)?.state ?? 'terminated')) await kill(run);
      }
    }
    // One read per lease a round, however many commands name its instance.
    const leaseReads = new Map<string, Promise<LeaseView | undefined>>();
    const leaseOf = (tenantId: string, leaseId: string) => {
      const key = `${tenantId}/${leaseId}`;
      const read = leaseReads.get(key) ?? options.leases.get(tenantId, leaseId);
      leaseReads.set(key, read);
      return read;
    };
    // Each instance's agent starts its commands on its own: one slow start never holds up another's.
    const starts: Promise<void>[] = [];
    const since = listedSince();
    // The regions' lists are read side by side: a round takes as long as the slowest, not their sum.
    const listings = await Promise.all(
      options.regions.map(async (region) => ({
        region,
        listed: await clients.ssm(region).send(
          new ListCommandsCommand({
            Filters: [
              { key: 'InvokedAfter', value: secondsPrecision(since) },
              { key: 'DocumentName', value: 'AWS-RunShellScript' },
            ],
          }),
        ),
      })),
    );
    const fresh: { region: string; commandId: string; instanceIds: string[] }[] = [];
    for (const { region, listed } of listings) {
      for (const command of listed.Commands ?? []) {
        const commandId = command.CommandId ?? '';
        const sentMs = command.RequestedDateTime?.getTime() ?? since;
        newestListedMs = Math.max(newestListedMs ?? sentMs, sentMs);
        if (seen.has(commandId) || command.DocumentName !== 'AWS-RunShellScript') continue;
        seen.add(commandId);
        // The lease's credentials, as the machine's files would hold them, for its checkpoints, output and telemetry.
        keepCredentials(command.InstanceIds ?? [], command.Parameters?.commands);
        // A credentials delivery is no attempt: nothing to run.
        if (command.Comment === LEASE_MACHINE_REFRESH_COMMENT) continue;
        unsettled.set(commandId, sentMs);
        fresh.push({ region, commandId, instanceIds: command.InstanceIds ?? [] });
      }
    }
    // One DescribeInstances a region a round, for the instances of every command it starts.
    const described = new Map(
      [...new Set(fresh.map((command) => command.region))].map((region) => [
        region,
        describe(region, [
          ...new Set(fresh.filter((c) => c.region === region).flatMap((c) => c.instanceIds)),
        ]),
      ]),
    );
    for (const { region, commandId, instanceIds } of fresh) {
      const settled = () => unsettled.delete(commandId);
      starts.push(
        startCommand(
          region,
          commandId,
          instanceIds,
          leaseOf,
          described.get(region) ?? Promise.resolve(new Map()),
        ).then(
          (outcome) => {
            if (outcome === 'pending') seen.delete(commandId);
            else settled();
          },
          (error: unknown) => {
            // Tried again next round only if nothing ran: a started attempt is never started twice.
            if (spawned.has(commandId)) settled();
            else seen.delete(commandId);
            throw error;
          },
        ),
      );
    }
    return starts;
  }

  async function tick() {
    await settleAll(await round());
  }

  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  // Polling, the next round does not wait for this one's starts: a slow start never holds up a new command.
  const starting = new Set<Promise<void>>();
  const loop = async () => {
    try {
      for (const start of await round()) {
        const tracked = start
          .catch((error: unknown) => console.error('local SSM agent:', error))
          .finally(() => starting.delete(tracked));
        starting.add(tracked);
      }
    } catch (error) {
      console.error('local SSM agent:', error);
    }
    if (!stopped && options.everyMs !== undefined) timer = setTimeout(loop, options.everyMs);
  };
  if (options.everyMs !== undefined) timer = setTimeout(loop, options.everyMs);

  return {
    docker: options.docker,
    leaseClientsOf,
    checkpointDir,
    tick,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await Promise.all(starting);
      const pending = [...runs.values()];
      await Promise.all(pending.map(kill));
      await Promise.allSettled(pending.map((run) => run.done));
      await launcher.stop();
      for (const made of machineClients.values()) {
        made.logs.destroy();
        made.s3.destroy();
        made.cloudWatch.destroy();
      }
    },
  };
}
