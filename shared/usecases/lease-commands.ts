import { type CommandOutcomes, leaseCommandMetric } from '../metric-names';
import type { LeaseCommand } from '../ports/lease-commands';
import { endWait } from './admission/wait-ends';
import { type DeadlineSteeringDeps, deadlineSteering, followScheduledDecision } from './deadline-steering';
import type { Provisioning } from './dependencies';
import { replaceInterrupted } from './interruptions';
import { abandonLease, provisionLease } from './provision-lease';
import { completeRelease, expireLease } from './release-lease';
import { advanceTask, prepareTaskStart, startTaskOnLease, type TaskDeps } from './tasks';

/** What the lease worker's commands reach: provisioning, releasing, the lease's task and its deadline. */
export type LeaseCommandDeps = Provisioning & TaskDeps & DeadlineSteeringDeps;

export interface LeaseCommandResult {
  readonly outcome: string;
  /** The worker's count of it, `<type>-<outcome>`. */
  readonly metric: string;
}

const done = <Type extends LeaseCommand['type']>(
  type: Type,
  outcome: CommandOutcomes[Type],
): LeaseCommandResult => ({ outcome, metric: leaseCommandMetric(type, outcome) });

/**
 * One lease command, as the worker runs it. Every step is idempotent, so a
 * command delivered twice, or by two workers at once, acts once: the lease's
 * transitions and the task's are conditional writes.
 */
export async function runLeaseCommand(
  deps: LeaseCommandDeps,
  command: LeaseCommand,
): Promise<LeaseCommandResult> {
  const { tenantId, leaseId } = command;
  const steer = deadlineSteering(deps);
  switch (command.type) {
    // start: a lease the admission pass let in after it waited, provisioned the same way.
    case 'provision':
    case 'start': {
      const outcome = await provisionLease(deps, tenantId, leaseId, steer, (lease) =>
        prepareTaskStart(deps, lease),
      );
      // not-pending: also a redelivery after a run that made the lease RUNNING and died before its task.
      if (outcome === 'not-pending') await startTaskOnLease(deps, tenantId, leaseId);
      if (outcome === 'failed')
        await advanceTask(deps, tenantId, leaseId, { type: 'lease-failed', atMs: deps.now() });
      return done(command.type, outcome);
    }
    case 'release':
      // The task stops first (STOPPED), then the instances go.
      await advanceTask(deps, tenantId, leaseId, { type: 'stop', atMs: deps.now() });
      return done('release', await completeRelease(deps, tenantId, leaseId));
    case 'replace': {
      const instanceId = command.instanceId ?? '';
      // The old attempt stops before its instance is ended and before the next one can start.
      await advanceTask(deps, tenantId, leaseId, { type: 'instance-lost', instanceId, atMs: deps.now() });
      const outcome = await replaceInterrupted(deps, tenantId, leaseId, instanceId, steer);
      // Also on a redelivery (the lease already RUNNING again): starting is idempotent.
      if (outcome === 'replaced' || outcome === 'not-interrupted')
        await startTaskOnLease(deps, tenantId, leaseId);
      if (outcome === 'failed')
        await advanceTask(deps, tenantId, leaseId, { type: 'lease-failed', atMs: deps.now() });
      return done('replace', outcome);
    }
    // From the lease's expiry schedule: released like a tenant's DELETE.
    case 'expire':
      return done('expire', await expireLease(deps, tenantId, leaseId));
    // From the deadline schedule: the policy looks again, and the lease follows.
    case 'decide':
      return done('decide', await followScheduledDecision(deps, tenantId, leaseId));
    // From the reconciler, which found the lease's provision dead-lettered: FAILED if still PENDING.
    case 'abandon': {
      const outcome = await abandonLease(deps, tenantId, leaseId);
      if (outcome === 'failed')
        await advanceTask(deps, tenantId, leaseId, { type: 'lease-failed', atMs: deps.now() });
      return done('abandon', outcome);
    }
    // From the scheduled admission pass, when the lease's wait ends: QUEUE_TIMEOUT if it still waits.
    case 'time-out':
      return done('time-out', await endWait(deps, tenantId, leaseId));
  }
}
