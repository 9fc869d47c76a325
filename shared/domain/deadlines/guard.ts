import type { MicroUsd } from '../money';
import type {
  DeadlineAction,
  DeadlinePolicy,
  DeadlinePolicyInput,
  JobPolicyDecision,
  OnDemandOffer,
  SpotPoolSignal,
} from './policy-input';
import { checkpointTransferMicroUsd } from './transfer';

const MS_PER_HOUR = 3_600_000;

export class NoOnDemandOfferError extends Error {
  constructor(readonly nowMs: number) {
    super('A deadline decision needs at least one on-demand offer: its guarantee rests on one');
    this.name = 'NoOnDemandOfferError';
  }
}

/** Micro-dollars (fractional: a comparison, not a charge) of `ms` at an hourly price. */
export function costOfMs(priceMicroUsdPerHour: MicroUsd, ms: number): number {
  return (priceMicroUsdPerHour * ms) / MS_PER_HOUR;
}

/** The cheapest on-demand offer's hourly price: the price spot is weighed against. */
export function cheapestOnDemandPrice(input: DeadlinePolicyInput): MicroUsd {
  return Math.min(...input.onDemand.map((offer) => offer.priceMicroUsdPerHour));
}

export function remainingMs(input: DeadlinePolicyInput): number {
  return Math.max(0, input.job.workMs - input.doneMs);
}

/**
 * A restart as the policy counts it: whole ticks, since the job is looked at
 * only once a tick and so cannot act on a restart that ends mid-tick.
 */
export function restartReserveMs(input: DeadlinePolicyInput): number {
  return Math.ceil(input.job.restartMs / input.tickMs) * input.tickMs;
}

/**
 * Time the job may still lose off on-demand: the time left, less the remaining
 * work, a restart onto on-demand and one more tick (the next look may come a
 * whole tick later). While it is not negative, an on-demand start at the next
 * look still finishes by the deadline, whatever spot does meanwhile.
 */
export function slackMs(input: DeadlinePolicyInput): number {
  return input.job.deadlineMs - input.nowMs - remainingMs(input) - restartReserveMs(input) - input.tickMs;
}

export function transferMicroUsd(input: DeadlinePolicyInput, from: string, to: string): MicroUsd {
  return checkpointTransferMicroUsd(input.transferCosts, input.job.checkpointGb, from, to);
}

/** The cheapest way to finish on-demand from a checkpoint in `fromRegion`: a restart, the remaining work and the move. */
export function finishOnDemand(
  input: DeadlinePolicyInput,
  fromRegion: string,
): { readonly offer: OnDemandOffer; readonly costMicroUsd: number } {
  const runMs = restartReserveMs(input) + remainingMs(input);
  let best: { offer: OnDemandOffer; costMicroUsd: number } | null = null;
  for (const offer of input.onDemand) {
    const cost =
      transferMicroUsd(input, fromRegion, offer.region) + costOfMs(offer.priceMicroUsdPerHour, runMs);
    if (best === null || cost < best.costMicroUsd) best = { offer, costMicroUsd: cost };
  }
  if (best === null) throw new NoOnDemandOfferError(input.nowMs);
  return best;
}

/**
 * One decision asks for the allowance in every budget check, pool by pool; its
 * farthest move goes over every pair of regions, which was most of a decision's
 * time on all 9 zones. An input is plain data no one changes, so one per input.
 */
const allowances = new WeakMap<DeadlinePolicyInput, number>();

/**
 * What the job may spend beyond all on-demand: one round trip to spot that
 * makes no progress (two restart attempts, each its reserve and a tick, at the
 * on-demand price: onto spot and back onto on-demand), and one move of its
 * checkpoint between two of its regions. A job that is on-demand when spot
 * appears, as every job that found none at submission is, pays both restarts
 * if its first spot run is interrupted at once; with one attempt allowed it
 * could then never try spot again (on the V100 traces one such job ran 35
 * hours on-demand while spot was up three quarters of the time). No online
 * policy can start on spot risking less than one attempt. Without the move a
 * job could never try a cheaper region before it had banked savings at home,
 * and one that began on-demand never could (measured on the traces: half the
 * jobs over all 9 zones stuck on-demand).
 */
export function riskAllowanceMicroUsd(input: DeadlinePolicyInput): number {
  const known = allowances.get(input);
  if (known !== undefined) return known;
  const cheapest = cheapestOnDemandPrice(input);
  const regions = input.onDemand.map((offer) => offer.region);
  const farthestMove = Math.max(
    ...regions.flatMap((from) => regions.map((to) => transferMicroUsd(input, from, to))),
  );
  const allowance = 2 * costOfMs(cheapest, restartReserveMs(input) + input.tickMs) + farthestMove;
  allowances.set(input, allowance);
  return allowance;
}

/** What the job may cost at most: all on-demand plus the risk allowance. */
function budgetCeilingMicroUsd(input: DeadlinePolicyInput): number {
  return input.job.onDemandCostMicroUsd + riskAllowanceMicroUsd(input);
}

/** Whether spending `moreMicroUsd`, then on-demand to the end from a checkpoint in `region`, stays within the ceiling. */
function affordsThenOnDemand(input: DeadlinePolicyInput, moreMicroUsd: number, region: string): boolean {
  const total = input.spentMicroUsd + moreMicroUsd + finishOnDemand(input, region).costMicroUsd;
  return total <= budgetCeilingMicroUsd(input);
}

/** A spot start at `priceMicroUsdPerHour`: its whole restart and one tick of work. */
function spotStartMicroUsd(input: DeadlinePolicyInput, priceMicroUsdPerHour: MicroUsd): number {
  return costOfMs(priceMicroUsdPerHour, restartReserveMs(input) + input.tickMs);
}

/**
 * Whether the action, followed in the worst case by on-demand to the end,
 * stays within all on-demand plus the allowance. A spot action is billed for
 * `spotMs` before that worst case (the guard looks one tick ahead).
 */
export function withinBudget(
  input: DeadlinePolicyInput,
  action: DeadlineAction,
  pool: SpotPoolSignal | undefined,
  spotMs: number = input.tickMs,
): boolean {
  if (action.kind === 'wait') return affordsThenOnDemand(input, 0, input.checkpointRegion);
  if (action.kind !== 'spot' || pool === undefined) return true;
  const now =
    transferMicroUsd(input, input.checkpointRegion, action.region) +
    costOfMs(pool.priceMicroUsdPerHour, spotMs);
  return affordsThenOnDemand(input, now, action.region);
}

/**
 * Whether a job that goes on-demand now could still come back to spot later:
 * the slack covers the restart onto on-demand and then one onto spot, and the
 * budget covers that restart, a spot start at `spotPrice` with its whole
 * restart, and on-demand to the end after it. Where it does not, on-demand now
 * is on-demand to the deadline.
 */
export function affordsSpotAfterOnDemand(input: DeadlinePolicyInput, spotPrice: MicroUsd): boolean {
  const restart = restartReserveMs(input);
  if (slackMs(input) < 2 * restart) return false;
  const finish = finishOnDemand(input, input.checkpointRegion);
  const ceiling = budgetCeilingMicroUsd(input);
  const ontoOnDemand = costOfMs(finish.offer.priceMicroUsdPerHour, restart);
  return (
    input.spentMicroUsd + ontoOnDemand + spotStartMicroUsd(input, spotPrice) + finish.costMicroUsd <= ceiling
  );
}

/**
 * Whether a spot start in `pool` that fails at the end of its restart (billed
 * its restart and a tick, no progress) would still leave the budget a second
 * such start. Where it would not, the start is the job's last try at spot.
 */
export function affordsSpotStartAfterFailedOne(input: DeadlinePolicyInput, pool: SpotPoolSignal): boolean {
  const move = transferMicroUsd(input, input.checkpointRegion, pool.region);
  return affordsThenOnDemand(
    input,
    move + 2 * spotStartMicroUsd(input, pool.priceMicroUsdPerHour),
    pool.region,
  );
}

/**
 * Whether a start in `pool`, in another region than the checkpoint, would
 * strand the job there: interrupted before any progress, the budget would not
 * carry the checkpoint back and a start at home (in `pool`'s price) with
 * on-demand to the end after it.
 */
export function strandsCheckpoint(input: DeadlinePolicyInput, pool: SpotPoolSignal): boolean {
  const move = transferMicroUsd(input, input.checkpointRegion, pool.region);
  if (move === 0) return false;
  const there = 2 * move + 2 * spotStartMicroUsd(input, pool.priceMicroUsdPerHour);
  return !affordsThenOnDemand(input, there, input.checkpointRegion);
}

export const hours = (ms: number) => `${(ms / MS_PER_HOUR).toFixed(1)} h`;

/** Where the job runs on-demand: where it already does, else the cheapest finish from the checkpoint. */
export function onDemandRegion(input: DeadlinePolicyInput): string {
  return input.placement.kind === 'on-demand'
    ? input.placement.region
    : finishOnDemand(input, input.checkpointRegion).offer.region;
}

/** On-demand for the rest of the job. */
export function onDemandDecision(input: DeadlinePolicyInput, why: string): JobPolicyDecision {
  const region = onDemandRegion(input);
  return {
    action: { kind: 'on-demand', region },
    reason: `on-demand in ${region}: ${why}`,
    slackMs: slackMs(input),
  };
}

/**
 * Every policy's proposal passes here. It stands unless it could make the job
 * late (the slack would not cover a restart onto on-demand at the next look)
 * or, where `keepsBudget`, followed by on-demand to the end, cost more than all
 * on-demand plus the risk allowance; then the job runs on-demand. On-demand
 * proposals always stand.
 */
export function guardProposal(
  input: DeadlinePolicyInput,
  action: DeadlineAction,
  why: string,
  keepsBudget = true,
): JobPolicyDecision {
  const slack = slackMs(input);
  if (action.kind === 'on-demand') {
    return { action, reason: slack < 0 ? `${why}; no slack for another restart` : why, slackMs: slack };
  }
  if (slack < 0) {
    return onDemandDecision(
      input,
      `${hours(remainingMs(input))} of work left and ${hours(input.job.deadlineMs - input.nowMs)} to the deadline: no slack for another restart`,
    );
  }
  const pool =
    action.kind === 'spot' ? input.spot.find((candidate) => candidate.zone === action.zone) : undefined;
  if (keepsBudget && !withinBudget(input, action, pool)) {
    return onDemandDecision(input, 'anything else could end up costing more than all on-demand');
  }
  return { action, reason: `${why}; ${hours(slack)} of slack`, slackMs: slack };
}

/** What a policy would do, before the guard has its say. */
export interface Proposal {
  readonly action: DeadlineAction;
  readonly why: string;
}

function guardedBy(keepsBudget: boolean, propose: (input: DeadlinePolicyInput) => Proposal): DeadlinePolicy {
  return (input) => {
    if (remainingMs(input) === 0) {
      return { action: { kind: 'wait' }, reason: 'the work is done', slackMs: slackMs(input) };
    }
    const proposal = propose(input);
    return guardProposal(input, proposal.action, proposal.why, keepsBudget);
  };
}

/** A policy from a proposer: nothing once the work is done, else the proposal through `guardProposal`. */
export const guarded = (propose: (input: DeadlinePolicyInput) => Proposal): DeadlinePolicy =>
  guardedBy(true, propose);

/**
 * The deadline half of the guard alone, no ceiling on cost: how "Can't Be
 * Late" runs its baselines, so that gpurent's policy is measured against them
 * as published, not against versions held to its own budget.
 */
export const deadlineGuarded = (propose: (input: DeadlinePolicyInput) => Proposal): DeadlinePolicy =>
  guardedBy(false, propose);
