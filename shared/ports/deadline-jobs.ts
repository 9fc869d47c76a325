import type {
  DeadlinePolicyInput,
  JobPolicyDecision,
  OnDemandOffer,
  SpotPoolSignal,
} from '../domain/deadlines/policy-input';
import type { CheckpointReport, TaskRun } from '../domain/deadlines/progress';

/** What starts a decision: a launch, an interruption, or the worker's schedule. */
export type DecisionTrigger = 'launch' | 'interruption' | 'schedule';

/** A job with a deadline as stored with its lease: the policy's job, placement, checkpoint and spend, with its runs. */
export interface DeadlineJobRecord
  extends Pick<DeadlinePolicyInput, 'job' | 'placement' | 'checkpointRegion' | 'spentMicroUsd'> {
  readonly tenantId: string;
  readonly leaseId: string;
  readonly runs: readonly TaskRun[];
  readonly reports: readonly CheckpointReport[];
  /** The zones the lease may run in (its allowed pools). */
  readonly zones: readonly string[];
}

export interface StoredDecision extends JobPolicyDecision {
  readonly atMs: number;
  readonly trigger: DecisionTrigger;
  readonly doneMs: number;
}

/** The deadline part of the lease store: the job as the policy reads it, and its decisions. */
export interface DeadlineJobs {
  get(tenantId: string, leaseId: string): Promise<DeadlineJobRecord | null>;
  /** Appends the decision to the lease's history and makes it the current one. */
  recordDecision(tenantId: string, leaseId: string, decision: StoredDecision): Promise<void>;
}

/** What the control plane knows of the market now: the allowed pools' signals and on-demand offers. */
export interface DeadlineMarketSignals {
  spotPools(zones: readonly string[], nowMs: number): Promise<readonly SpotPoolSignal[]>;
  onDemandOffers(zones: readonly string[]): Promise<readonly OnDemandOffer[]>;
}
