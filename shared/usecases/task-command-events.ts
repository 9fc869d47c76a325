import { isTerminal } from '../domain/lease';
import { type CommandInvocationEvent, commandPhase } from '../domain/tasks/command-events';
import { awaitsCommandId, taskReleaseInstant } from '../domain/tasks/state';
import type { LeaseEnding } from './dependencies';
import { completeRelease, requestRelease } from './release-lease';
import { advanceTask, type TaskDeps, type TaskOutcome } from './tasks';

/**
 * What a command's status event needs beyond moving the task: finding the
 * instance's lease, and ending the lease when its task's end releases it.
 */
export type CommandEventDeps = TaskDeps & LeaseEnding;

/**
 * How long the release command of a lease its task released is held back.
 * This delivery completes the release itself; the command only finishes a
 * release whose delivery died midway (and whose event went to the DLQ), so it
 * waits past the queue's redeliveries instead of racing the completion.
 */
export const TASK_RELEASE_BACKSTOP_SECONDS = 300;

/** An SSM event came before its attempt's command id was written: thrown so that its queue delivers it again. */
export class TaskCommandNotRecordedError extends Error {
  constructor(
    readonly leaseId: string,
    readonly commandId: string,
  ) {
    super(
      `lease ${leaseId}: command ${commandId} may be the attempt being sent; retried once its id is recorded`,
    );
    this.name = 'TaskCommandNotRecordedError';
  }
}

/**
 * SSM says an invocation changed status: the task of the instance's lease
 * moves on (RUNNING, or ended: SUCCEEDED, FAILED with its exit code, retried
 * when the spec allows). SSM's event carries no exit code: it is read with
 * GetCommandInvocation unless the event brings it (the local agent does).
 * A task that ends with onExit release ends its lease in this same delivery.
 */
export async function handleCommandEvent(
  deps: CommandEventDeps,
  event: CommandInvocationEvent,
): Promise<TaskOutcome | 'not-ours' | 'pending'> {
  const { detail } = event;
  const phase = commandPhase(detail.status);
  if (phase === 'pending') return 'pending';
  const regions = [event.region, ...deps.placement.regions.filter((region) => region !== event.region)];
  const instance = await deps.compute.findInstance(detail['instance-id'], regions);
  if (!instance?.leaseId || !instance.tenantId) return 'not-ours';
  const { tenantId, leaseId } = instance;
  const atMs = Date.parse(event.time);
  const commandId = detail['command-id'];
  const lease = await deps.leases.get(tenantId, leaseId);
  if (lease?.task && awaitsCommandId(lease.task, instance.instanceId, commandId))
    throw new TaskCommandNotRecordedError(leaseId, commandId);
  if (phase === 'in-progress')
    return advanceTask(deps, tenantId, leaseId, { type: 'in-progress', commandId, atMs }, { lease });
  const exitCode =
    detail['exit-code'] ??
    (phase === 'Failed'
      ? (
          await deps.tasks.runner.result(
            { instanceId: instance.instanceId, region: instance.region },
            commandId,
          )
        ).exitCode
      : undefined);
  const outcome = await advanceTask(
    deps,
    tenantId,
    leaseId,
    { type: 'ended', commandId, outcome: phase, exitCode, atMs },
    { release: { commandDelaySeconds: TASK_RELEASE_BACKSTOP_SECONDS }, lease },
  );
  await releaseAfterTask(deps, tenantId, leaseId);
  return outcome;
}

/**
 * The lease's task ended and its spec releases the lease: the release is
 * completed here, not one queued command later. Checked on every delivery of
 * an end, so a redelivery finishes a release that a crash left asked for,
 * or not yet asked for (the task's end was written, its release was not).
 */
async function releaseAfterTask(deps: CommandEventDeps, tenantId: string, leaseId: string): Promise<void> {
  const lease = await deps.leases.get(tenantId, leaseId);
  if (!lease || isTerminal(lease.status) || taskReleaseInstant(lease.task) === undefined) return;
  if (lease.status !== 'RELEASING')
    await requestRelease(deps, tenantId, leaseId, { commandDelaySeconds: TASK_RELEASE_BACKSTOP_SECONDS });
  await completeRelease(deps, tenantId, leaseId);
}
