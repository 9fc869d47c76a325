import type { MicroUsd } from '../money';
import type { TransferCosts } from './transfer';

/** Where the job runs as the policy is asked: nowhere (waiting for capacity or by choice), on spot in one pool, or on-demand. */
export type JobPlacement =
  | { readonly kind: 'waiting' }
  | { readonly kind: 'spot'; readonly zone: string; readonly region: string }
  | { readonly kind: 'on-demand'; readonly region: string };

/** What the control plane knows of one allowed spot pool now. */
export interface SpotPoolSignal {
  readonly zone: string;
  readonly region: string;
  readonly priceMicroUsdPerHour: MicroUsd;
  /** Whether spot capacity is believed to be there now (the last probe or launch found some). */
  readonly available: boolean;
  /** The pool's unavailable-offerings mark: its last launch refusal or interruption. */
  readonly lastCapacityFailureAtMs?: number | undefined;
  /** While the pool has no capacity: when its current outage began, as far as the control plane knows. */
  readonly unavailableSinceMs?: number | undefined;
  /** Interruptions and refusals seen in the pool over the signal window. */
  readonly recentInterruptions: number;
  /** How long the pool had capacity over the signal window. */
  readonly recentAvailableMs: number;
  /** How long the signal window is (shorter where the record does not reach that far back). */
  readonly recentWindowMs: number;
}

export interface OnDemandOffer {
  readonly region: string;
  readonly priceMicroUsdPerHour: MicroUsd;
}

/** The job's terms, fixed at submission. */
export interface DeadlineJob {
  readonly submittedAtMs: number;
  readonly deadlineMs: number;
  /** Work on one machine of the type, from start to finish. */
  readonly workMs: number;
  /** Billed time a (re)start spends booting and restoring before the work moves on. */
  readonly restartMs: number;
  /** What a move to another region carries along. */
  readonly checkpointGb: number;
  /** What all on-demand would have cost at submission: the policy keeps close to never paying more. */
  readonly onDemandCostMicroUsd: MicroUsd;
}

/** Everything one decision reads: plain data the lease, its checkpoints and the pool listings provide. */
export interface DeadlinePolicyInput {
  readonly job: DeadlineJob;
  readonly nowMs: number;
  /** How often, at most apart, the policy is asked (the worker's schedule): its safety margin. */
  readonly tickMs: number;
  /** Work saved in the latest checkpoint. */
  readonly doneMs: number;
  readonly placement: JobPlacement;
  /** Where the latest checkpoint lives: the region of the last run. */
  readonly checkpointRegion: string;
  readonly spot: readonly SpotPoolSignal[];
  /** On-demand offers, never empty: the policy's guarantee rests on them. */
  readonly onDemand: readonly OnDemandOffer[];
  readonly transferCosts: TransferCosts;
  /** Billed so far, transfers included. */
  readonly spentMicroUsd: MicroUsd;
}

export type DeadlineAction =
  | { readonly kind: 'spot'; readonly zone: string; readonly region: string }
  | { readonly kind: 'on-demand'; readonly region: string }
  | { readonly kind: 'wait' };

/** One decision as stored and sent (`JobPolicyDecision`): plain data with its reason in words. */
export interface JobPolicyDecision {
  readonly action: DeadlineAction;
  readonly reason: string;
  /** Time the job can still lose before it must be on-demand; negative once it must. */
  readonly slackMs: number;
}

export type DeadlinePolicy = (input: DeadlinePolicyInput) => JobPolicyDecision;

/** What starts a decision: a launch, an interruption, or the deadline schedule. */
export type DecisionTrigger = 'launch' | 'interruption' | 'schedule';

/** A decision as stored (the lease's current one, and its history) with when, why it was asked and the work it counted. */
export interface StoredDecision extends JobPolicyDecision {
  readonly atMs: number;
  readonly trigger: DecisionTrigger;
  readonly doneMs: number;
}
