import { settleAll } from '../concurrency';
import type { LeaseView } from '../domain/lease';
import { attemptComment } from '../domain/tasks/attempt-command';
import {
  LEASE_MACHINE_CREDENTIALS_SECONDS,
  LEASE_MACHINE_REFRESH_COMMENT,
  leaseMachinePolicy,
  leaseMachineRefreshDue,
  leaseMachineSessionName,
} from '../domain/tasks/lease-machine-access';
import { checkpointUri } from '../domain/tasks/log-streams';
import { leaseMachineLines, taskScript } from '../domain/tasks/script';
import {
  applyTaskEvent,
  isTaskEnded,
  type TaskEffect,
  type TaskEvent,
  type TaskState,
} from '../domain/tasks/state';
import type { TemporaryCredentials } from '../ports/scoped-credentials';
import type { TaskRunning, TaskTarget } from '../ports/task-runner';
import type { ControlPlane } from './dependencies';
import { heldInstances } from './lease-instances';
import { type ReleaseRequest, requestRelease } from './release-lease';

/** What moving a task on needs: the lease, SSM, the release (onExit) and the events. */
export type TaskDeps = Pick<ControlPlane, 'leases' | 'commands' | 'events' | 'region' | 'now'> & {
  readonly tasks: TaskRunning;
};

/** SSM's own limit on how long one command may run (AWS-RunShellScript executionTimeout, 48 h). */
const MAX_EXECUTION_SECONDS = 172_800;
/** Conditional writes lost to another writer before giving up (the message is retried). */
const MAX_CONFLICTS = 5;

export class TaskConflictError extends Error {
  constructor(readonly leaseId: string) {
    super(`The task of ${leaseId} kept changing under ${MAX_CONFLICTS} writes`);
    this.name = 'TaskConflictError';
  }
}

export type TaskOutcome = TaskState['status'] | 'unchanged' | 'no-task';

/**
 * Applies one event to the lease's task: the next state is written on the
 * condition that nobody else advanced it (so a redelivered event, or two
 * workers, act once), then its effects run: an attempt is sent (and its
 * command id recorded), an old one cancelled, the lease released.
 */
export function advanceTask(
  deps: TaskDeps,
  tenantId: string,
  leaseId: string,
  event: TaskEvent,
  options: AdvanceOptions = {},
): Promise<TaskOutcome> {
  return stepTask(
    deps,
    tenantId,
    leaseId,
    event,
    (lease, task, effect) => perform(deps, lease, task, effect, options),
    options.lease,
  );
}

export interface AdvanceOptions {
  /** How the release is asked for when the task's end releases the lease. */
  readonly release?: ReleaseRequest | undefined;
  /**
   * The lease as the caller just read or wrote it: the first try steps from
   * it instead of reading it again (the write's revision check still
   * catches a newer task; only then is the lease read).
   */
  readonly lease?: LeaseView | undefined;
  /** The lease machine credentials of an attempt this step sends, minted by the caller beside the step's write. */
  readonly machineAccess?: Promise<TemporaryCredentials> | undefined;
}

/**
 * The lease FAILED without ever running (QUEUE_TIMEOUT): its task fails with
 * it. That step sends and cancels nothing, so SSM is not needed: the
 * admission pass, which has no SSM access, calls this.
 */
export function failTaskWithLease(
  deps: TaskWriteDeps,
  tenantId: string,
  leaseId: string,
): Promise<TaskOutcome> {
  return stepTask(
    deps,
    tenantId,
    leaseId,
    { type: 'lease-failed', atMs: deps.now() },
    async (_l, _t, effect) => {
      throw new Error(`lease ${leaseId}: a failed lease's task has no ${effect.kind} to run`);
    },
  );
}

/** What writing a task's next state takes, its effects aside. */
type TaskWriteDeps = Pick<ControlPlane, 'leases' | 'events' | 'now'>;

async function stepTask(
  deps: TaskWriteDeps,
  tenantId: string,
  leaseId: string,
  event: TaskEvent,
  run: (lease: LeaseView, task: TaskState, effect: TaskEffect) => Promise<void>,
  known?: LeaseView,
): Promise<TaskOutcome> {
  for (let tries = 0; tries < MAX_CONFLICTS; tries += 1) {
    const lease = tries === 0 && known ? known : await deps.leases.get(tenantId, leaseId);
    if (!lease?.task) return 'no-task';
    const step = applyTaskEvent(lease.task, event);
    if (!step.changed) return 'unchanged';
    if (!(await deps.leases.saveTask(tenantId, leaseId, step.task))) continue;
    const effects = async () => {
      for (const effect of step.effects) await run(lease, step.task, effect);
    };
    // The end's announcement goes beside its effects (the release), not before them.
    await settleAll([
      isTaskEnded(step.task.status) && !isTaskEnded(lease.task.status)
        ? announceEnd(deps, lease, step.task)
        : undefined,
      effects(),
    ]);
    return step.task.status;
  }
  throw new TaskConflictError(leaseId);
}

export function targetOf(
  deps: Pick<ControlPlane, 'region'>,
  lease: LeaseView,
  instanceId: string,
): TaskTarget {
  const record = lease.instances.find((i) => i.instanceId === instanceId);
  return { instanceId, region: record?.region ?? deps.region };
}

async function perform(
  deps: TaskDeps,
  lease: LeaseView,
  task: TaskState,
  effect: TaskEffect,
  options: AdvanceOptions,
): Promise<void> {
  const { tenantId, leaseId } = lease;
  switch (effect.kind) {
    case 'send': {
      const target = targetOf(deps, lease, effect.instanceId);
      const comment = attemptComment(leaseId, effect.attempt);
      let commandId: string;
      try {
        // A sender that died after SendCommand left a command running: it is the attempt, not a second one.
        const adopted = effect.takeOver ? await deps.tasks.runner.sentWith(target, comment) : undefined;
        commandId =
          adopted ??
          (await sendAttempt(
            deps,
            lease,
            task,
            effect.attempt,
            target,
            comment,
            options.machineAccess ?? mintMachineAccess(deps, tenantId, leaseId),
          ));
      } catch (error) {
        await advanceTask(
          deps,
          tenantId,
          leaseId,
          { type: 'send-failed', attempt: effect.attempt },
          { lease: { ...lease, task } },
        );
        throw error;
      }
      // The agent starts the command only once its id is recorded: this write is on the path to the task's start.
      await advanceTask(
        deps,
        tenantId,
        leaseId,
        { type: 'sent', attempt: effect.attempt, commandId, atMs: deps.now() },
        { lease: { ...lease, task } },
      );
      await deps.events.publish([
        {
          type: 'TaskStarted',
          tenantId,
          detail: {
            leaseId,
            attempt: effect.attempt,
            instanceId: effect.instanceId,
            commandId,
            waitedMs: Math.max(0, deps.now() - lease.createdAtMs),
          },
        },
      ]);
      return;
    }
    case 'cancel':
      // false: SSM cannot cancel here (the emulator); the instance's termination stops the attempt.
      await deps.tasks.runner.cancel(targetOf(deps, lease, effect.instanceId), effect.commandId);
      return;
    case 'release':
      await requestRelease(deps, tenantId, leaseId, options.release ?? {});
      return;
  }
}

/** Sends one attempt's script, with the lease's machine credentials, under the attempt's comment. */
async function sendAttempt(
  deps: TaskDeps,
  lease: LeaseView,
  task: TaskState,
  attempt: number,
  target: TaskTarget,
  comment: string,
  access: Promise<TemporaryCredentials>,
): Promise<string> {
  const { tenantId, leaseId } = lease;
  const limitSeconds = (task.spec.maxRuntimeMinutes ?? MAX_EXECUTION_SECONDS / 60) * 60 + 60;
  const credentials = await access;
  const commands = taskScript(task.spec, {
    tenantId,
    attempt,
    checkpointUri: checkpointUri(deps.tasks.checkpointBucket, tenantId, leaseId),
    runtime: 'container',
    machineAccess: { leaseId, credentials, outputLogGroup: deps.tasks.taskOutputLogGroup },
  });
  return deps.tasks.runner.send(target, commands, Math.min(MAX_EXECUTION_SECONDS, limitSeconds), comment);
}

/** Credentials of the lease machine role that reach the lease's own data and nothing else. */
function mintMachineAccess(deps: TaskDeps, tenantId: string, leaseId: string) {
  return deps.tasks.machineAccess.mint({
    sessionName: leaseMachineSessionName(leaseId),
    policy: leaseMachinePolicy({
      tenantId,
      leaseId,
      checkpointBucket: deps.tasks.checkpointBucket,
      taskOutputLogGroup: deps.tasks.taskOutputLogGroup,
    }),
    durationSeconds: LEASE_MACHINE_CREDENTIALS_SECONDS,
  });
}

/**
 * Credentials minted ahead of the send that awaits them. A send that never
 * comes (the claim lost, the launch failed) leaves them unused, and their
 * failure unreported rather than unhandled.
 */
function mintAhead(deps: TaskDeps, tenantId: string, leaseId: string): Promise<TemporaryCredentials> {
  const minted = mintMachineAccess(deps, tenantId, leaseId);
  minted.catch(() => undefined);
  return minted;
}

/** How long SSM may take to deliver and run a refresh. */
const REFRESH_TIMEOUT_SECONDS = 60;

/**
 * Puts the lease's machine credentials on each of `instances` (and restarts
 * its agent onto them) by a small command of their own. Each instance is
 * tried on its own: one not reachable yet (its SSM agent still registering)
 * is covered by the reconciler's next send (`leaseMachineRefreshDue`).
 * Returns how many were sent.
 */
async function deliverLeaseMachineAccess(
  deps: TaskDeps,
  lease: LeaseView,
  instances: readonly LeaseView['instances'][number][],
): Promise<number> {
  if (instances.length === 0) return 0;
  const credentials = await mintMachineAccess(deps, lease.tenantId, lease.leaseId);
  const commands = ['set -eu', ...leaseMachineLines(lease.tenantId, { leaseId: lease.leaseId, credentials })];
  const sent = await Promise.allSettled(
    instances.map((instance) =>
      deps.tasks.runner.send(
        targetOf(deps, lease, instance.instanceId),
        commands,
        REFRESH_TIMEOUT_SECONDS,
        LEASE_MACHINE_REFRESH_COMMENT,
      ),
    ),
  );
  return sent.filter((result) => result.status === 'fulfilled').length;
}

/**
 * A lease's machines outlive their credentials (an hour at most), and a
 * machine of a lease without a task got none from an attempt: when due, fresh
 * ones for the lease are minted and written over the files its profile's
 * credential_process and its agent read. Returns whether any was sent.
 */
export async function refreshLeaseMachineAccess(deps: TaskDeps, lease: LeaseView): Promise<boolean> {
  if (lease.status !== 'RUNNING') return false;
  const due = heldInstances(lease.instances).filter((instance) =>
    leaseMachineRefreshDue(instance.launchedAtMs, deps.now()),
  );
  return (await deliverLeaseMachineAccess(deps, lease, due)) > 0;
}

async function announceEnd(deps: TaskWriteDeps, lease: LeaseView, task: TaskState): Promise<void> {
  await deps.events.publish([
    {
      type: 'TaskEnded',
      tenantId: lease.tenantId,
      detail: {
        leaseId: lease.leaseId,
        status: task.status,
        attempt: task.attempt,
        exitCode: task.exitCode,
        endedAtMs: task.endedAtMs ?? deps.now(),
        failureReason: task.failureReason,
      },
    },
  ]);
}

/**
 * The lease runs: its task (if it waits) starts on the first instance that
 * is open and not reclaimed, with the lease's machine credentials; a lease
 * without a task has them sent to its machines instead. Called by the worker
 * once provisioning or a replacement made the lease RUNNING.
 */
export async function startTaskOnLease(
  deps: TaskDeps,
  tenantId: string,
  leaseId: string,
  minted?: Promise<TemporaryCredentials>,
): Promise<TaskOutcome> {
  const lease = await deps.leases.get(tenantId, leaseId);
  if (lease?.status === 'RUNNING' && !lease.task) {
    // No attempt brings the machines their credentials: they are sent now, for the lease's telemetry.
    // A failure here fails no start: the reconciler sends them again in the machines' first minutes.
    await deliverLeaseMachineAccess(deps, lease, heldInstances(lease.instances)).catch(() => 0);
    return 'no-task';
  }
  if (!lease?.task) return 'no-task';
  if (lease.status !== 'RUNNING') return 'unchanged';
  const instance = heldInstances(lease.instances)[0];
  if (!instance) return 'unchanged';
  const event: TaskEvent = { type: 'instance-ready', instanceId: instance.instanceId, atMs: deps.now() };
  // The attempt's credentials are minted while its claim is written, not after: both are on the way to its start.
  const sends = applyTaskEvent(lease.task, event).effects.some((effect) => effect.kind === 'send');
  const machineAccess = sends ? (minted ?? mintAhead(deps, tenantId, leaseId)) : undefined;
  return advanceTask(deps, tenantId, leaseId, event, { lease, machineAccess });
}

/**
 * A lease whose task waits is about to be launched: its first attempt's
 * credentials are minted beside the launch, not after it. They last an
 * hour and are refreshed from the attempt's 30th minute on, so minting them
 * one launch (at most a Lambda's run) earlier leaves the refresh ample time.
 * Returns the task's start, for once the lease runs.
 */
export function prepareTaskStart(deps: TaskDeps, lease: LeaseView): () => Promise<TaskOutcome> {
  const minted =
    lease.task?.status === 'WAITING' ? mintAhead(deps, lease.tenantId, lease.leaseId) : undefined;
  return () => startTaskOnLease(deps, lease.tenantId, lease.leaseId, minted);
}
