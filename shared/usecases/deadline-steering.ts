import { placementOf, taskDeadline } from '../domain/deadlines/job-record';
import { DEADLINE_DECISION_INTERVAL_MS, isFollowed } from '../domain/deadlines/steering';
import { isTerminal } from '../domain/lease';
import { isTaskEnded } from '../domain/tasks/state';
import type { DeadlineJobs } from '../ports/deadline-jobs';
import { decideDeadlineJob } from './deadline-decision';
import { liveMarketSignals } from './deadline-market';
import type { Provisioning } from './dependencies';
import { replaceInterrupted, switchPlacement } from './interruptions';
import { heldInstances } from './lease-instances';
import { provisionLease } from './provision-lease';
import { following, type Steer } from './steer';
import { advanceTask, prepareTaskStart, startTaskOnLease, type TaskDeps } from './tasks';

/** What steering a job with a deadline adds to the worker's ports: the jobs and their decisions. */
export interface DeadlineSteeringDeps {
  readonly deadlineJobs: DeadlineJobs;
}

type Deps = Provisioning & TaskDeps & DeadlineSteeringDeps;

/**
 * The policy asked for a lease at a launch or an interruption: only a task
 * with a deadline that has not ended asks; the market is what placement sees.
 */
export function deadlineSteering(deps: Deps): Steer {
  const decisionDeps = {
    deadlineJobs: deps.deadlineJobs,
    marketSignals: liveMarketSignals(deps),
    events: deps.events,
    transferCosts: deps.placement.costs,
    decisionIntervalMs: DEADLINE_DECISION_INTERVAL_MS,
  };
  return async (lease, trigger) => {
    const { task } = lease;
    if (!task || !taskDeadline(task.spec) || isTaskEnded(task.status)) return null;
    return decideDeadlineJob(decisionDeps, {
      tenantId: lease.tenantId,
      leaseId: lease.leaseId,
      trigger,
      nowMs: deps.now(),
      queue: lease.status === 'QUEUED' ? lease.queue : undefined,
    });
  };
}

export type ScheduledDecisionOutcome =
  | 'closed'
  | 'unchanged'
  | 'launched'
  | 'switched'
  | 'resumed'
  | 'waiting'
  | 'failed'
  | 'missing';

/**
 * The schedule's look at one job with a deadline: the policy decides (stored,
 * sent) and the worker follows. A lease still PENDING (it waited at launch)
 * launches where the decision says; one INTERRUPTED with nothing left running
 * (it waited at an interruption) resumes there; one RUNNING elsewhere than
 * the decision says switches, its attempt ended before its instances and the
 * next started on the new ones. A job that is over leaves the schedule.
 */
export async function followScheduledDecision(
  deps: Deps,
  tenantId: string,
  leaseId: string,
): Promise<ScheduledDecisionOutcome> {
  const lease = await deps.leases.get(tenantId, leaseId);
  if (!lease) return 'missing';
  const decision =
    isTerminal(lease.status) || lease.status === 'RELEASING'
      ? null
      : await deadlineSteering(deps)(lease, 'schedule');
  if (!decision) {
    await deps.deadlineJobs.close(tenantId, leaseId);
    return 'closed';
  }
  const steer = following(decision);
  if (lease.status === 'PENDING') {
    const outcome = await provisionLease(deps, tenantId, leaseId, steer, (pending) =>
      prepareTaskStart(deps, pending),
    );
    return outcome === 'running' ? 'launched' : outcome === 'waiting' ? 'waiting' : 'unchanged';
  }
  if (lease.status === 'INTERRUPTED') {
    // Still in the hands of its replace command (a warned instance works on): not the schedule's.
    const reclaimed = lease.instances.filter((i) => i.interruptedAtMs !== undefined && !i.meteringOpen);
    const last = reclaimed.sort((a, b) => (b.interruptedAtMs ?? 0) - (a.interruptedAtMs ?? 0))[0];
    if (!last || lease.instances.some((i) => i.meteringOpen)) return 'unchanged';
    const outcome = await replaceInterrupted(deps, tenantId, leaseId, last.instanceId, steer);
    return resumed(deps, tenantId, leaseId, outcome, 'resumed');
  }
  if (lease.status !== 'RUNNING' || isFollowed(placementOf(lease, deps.region), decision.action)) {
    return 'unchanged';
  }
  // The attempt stops before its instance goes, so two attempts never run at once.
  for (const instance of heldInstances(lease.instances)) {
    await advanceTask(deps, tenantId, leaseId, {
      type: 'instance-lost',
      instanceId: instance.instanceId,
      atMs: deps.now(),
    });
  }
  return resumed(deps, tenantId, leaseId, await switchPlacement(deps, lease, decision), 'switched');
}

async function resumed(
  deps: Deps,
  tenantId: string,
  leaseId: string,
  outcome: Awaited<ReturnType<typeof replaceInterrupted>>,
  done: 'resumed' | 'switched',
): Promise<ScheduledDecisionOutcome> {
  if (outcome === 'replaced') {
    await startTaskOnLease(deps, tenantId, leaseId);
    return done;
  }
  if (outcome === 'failed') {
    await advanceTask(deps, tenantId, leaseId, { type: 'lease-failed', atMs: deps.now() });
    return 'failed';
  }
  return outcome === 'waiting' ? 'waiting' : 'unchanged';
}
