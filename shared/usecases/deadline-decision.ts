import { queuePlace } from '../domain/admission/queue-place';
import { deadlinePolicy } from '../domain/deadlines/policy';
import type { JobPolicyDecision } from '../domain/deadlines/policy-input';
import { jobProgress } from '../domain/deadlines/progress';
import type { TransferCosts } from '../domain/deadlines/transfer';
import type { LeaseQueueState } from '../domain/lease';
import type {
  DeadlineJobs,
  DeadlineMarketSignals,
  DecisionTrigger,
  StoredDecision,
} from '../ports/deadline-jobs';
import type { DomainEventPublisher } from '../ports/domain-events';

export interface DeadlineDecisionDeps {
  readonly deadlineJobs: DeadlineJobs;
  readonly marketSignals: DeadlineMarketSignals;
  readonly events: DomainEventPublisher;
  readonly transferCosts: TransferCosts;
  /** How often, at most apart, the worker's schedule asks: the policy's safety margin. */
  readonly decisionIntervalMs: number;
}

export class DeadlineJobNotFoundError extends Error {
  constructor(
    readonly tenantId: string,
    readonly leaseId: string,
  ) {
    super(`lease ${leaseId} of ${tenantId} has no job with a deadline`);
    this.name = 'DeadlineJobNotFoundError';
  }
}

/**
 * One decision for a job with a deadline, at a launch, an interruption or on
 * the worker's schedule: the policy reads the saved progress, the pools'
 * signals and the on-demand offers; the decision is stored with its reason
 * and sent as `JobPolicyDecision`. The caller acts on it (launch, switch, wait).
 * A lease waiting in the admission queue (`queue`) is decided for too (its
 * slack shrinks as it waits), and the reason says that it waits, why and where.
 */
export async function decideDeadlineJob(
  deps: DeadlineDecisionDeps,
  request: {
    readonly tenantId: string;
    readonly leaseId: string;
    readonly trigger: DecisionTrigger;
    readonly nowMs: number;
    readonly queue?: LeaseQueueState | undefined;
  },
): Promise<StoredDecision> {
  const record = await deps.deadlineJobs.get(request.tenantId, request.leaseId);
  if (!record) throw new DeadlineJobNotFoundError(request.tenantId, request.leaseId);
  const progress = jobProgress(record.runs, record.reports, record.job.workMs, request.nowMs);
  const [spot, onDemand] = await Promise.all([
    deps.marketSignals.spotPools(record.market, request.nowMs),
    deps.marketSignals.onDemandOffers(record.market, request.nowMs),
  ]);
  const policy: JobPolicyDecision = deadlinePolicy({
    job: record.job,
    nowMs: request.nowMs,
    tickMs: deps.decisionIntervalMs,
    doneMs: progress.savedMs,
    placement: record.placement,
    checkpointRegion: record.checkpointRegion,
    spot,
    onDemand,
    transferCosts: deps.transferCosts,
    spentMicroUsd: record.spentMicroUsd,
  });
  const { queue } = request;
  const unreadable = record.progressUnreadable
    ? `; its checkpoints could not be read (${record.progressUnreadable}), so no progress is counted as saved`
    : '';
  const queued = queue
    ? `; the lease waits in the admission queue (${queuePlace(queue)}) and follows this once admitted`
    : '';
  const decision: JobPolicyDecision =
    unreadable || queued ? { ...policy, reason: `${policy.reason}${unreadable}${queued}` } : policy;
  const stored: StoredDecision = {
    ...decision,
    atMs: request.nowMs,
    trigger: request.trigger,
    doneMs: progress.savedMs,
  };
  await deps.deadlineJobs.recordDecision(request.tenantId, request.leaseId, stored);
  const { action } = decision;
  await deps.events.publish([
    {
      type: 'JobPolicyDecision',
      tenantId: request.tenantId,
      detail: {
        leaseId: request.leaseId,
        atMs: request.nowMs,
        trigger: request.trigger,
        action: action.kind,
        ...(action.kind === 'wait' ? {} : { region: action.region }),
        ...(action.kind === 'spot' ? { zone: action.zone } : {}),
        reason: decision.reason,
        slackMs: Math.round(decision.slackMs),
        doneMs: Math.round(progress.savedMs),
      },
    },
  ]);
  return stored;
}
