import type { DeadlineJobRecord } from '../domain/deadlines/job-record';
import type { OnDemandOffer, SpotPoolSignal, StoredDecision } from '../domain/deadlines/policy-input';
import type { MarketQuery } from '../domain/deadlines/pool-signals';
import type { CheckpointReport } from '../domain/deadlines/progress';

export type { DeadlineJobRecord } from '../domain/deadlines/job-record';
export type { DecisionTrigger, StoredDecision } from '../domain/deadlines/policy-input';

/** The deadline part of the lease store: the job as the policy reads it, and its decisions. */
export interface DeadlineJobs {
  get(tenantId: string, leaseId: string): Promise<DeadlineJobRecord | null>;
  /** Appends the decision to the lease's history and makes it the current one. */
  recordDecision(tenantId: string, leaseId: string, decision: StoredDecision): Promise<void>;
  /** The job is over (its task ended, or its lease): the schedule stops asking. */
  close(tenantId: string, leaseId: string): Promise<void>;
}

/** The leases whose deadline jobs the schedule still looks at, across tenants. */
export interface OpenDeadlineJobs {
  list(): Promise<readonly { readonly tenantId: string; readonly leaseId: string }[]>;
}

/** What a task's checkpoints say of its progress: its progress file, else the time of its latest checkpoint. */
export interface CheckpointProgress {
  /** Throws CheckpointReadError when what the tenant wrote cannot be read within the bounds. */
  reports(tenantId: string, leaseId: string): Promise<readonly CheckpointReport[]>;
}

/**
 * A lease's checkpoints, which its task writes, are past what gpurent reads
 * (a progress file over its byte limit, a prefix over its key limit): that
 * lease's progress is unknown, with this reason; no other lease's read is touched.
 */
export class CheckpointReadError extends Error {
  constructor(
    readonly tenantId: string,
    readonly leaseId: string,
    readonly reason: string,
  ) {
    super(`the checkpoints of ${leaseId} could not be read: ${reason}`);
    this.name = 'CheckpointReadError';
  }
}

/** What the control plane knows of the market now: the allowed pools' signals and on-demand offers. */
export interface DeadlineMarketSignals {
  spotPools(query: MarketQuery, nowMs: number): Promise<readonly SpotPoolSignal[]>;
  onDemandOffers(query: MarketQuery, nowMs: number): Promise<readonly OnDemandOffer[]>;
}
