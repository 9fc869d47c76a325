import { deadlineGuarded, guarded, onDemandRegion, type Proposal } from '../../domain/deadlines/guard';
import type {
  DeadlinePolicy,
  DeadlinePolicyInput,
  SpotPoolSignal,
} from '../../domain/deadlines/policy-input';
import {
  currentSpotPool,
  isOnTrack,
  isSafelyAhead,
  usdPerHour,
} from '../../domain/deadlines/uniform-progress';

/**
 * The policies gpurent's is measured against, as "Can't Be Late" describes
 * them, spread over several zones the simple way: stay in the zone while it
 * has capacity, else take the cheapest zone with capacity. Both run behind
 * the deadline half of gpurent's guard, so all three keep the same deadline,
 * and, as in the paper, under no ceiling on cost: held to gpurent's budget
 * (until wave 12) uniform progress cost 1.194 × the optimum on the traces
 * instead of 1.124, a baseline easier to beat than the published one.
 */

function spotChoice(input: DeadlinePolicyInput): SpotPoolSignal | undefined {
  const current = currentSpotPool(input);
  if (current) return current;
  let best: SpotPoolSignal | undefined;
  for (const pool of input.spot) {
    if (pool.available && (!best || pool.priceMicroUsdPerHour < best.priceMicroUsdPerHour)) best = pool;
  }
  return best;
}

const spot = (pool: SpotPoolSignal, why: string): Proposal => ({
  action: { kind: 'spot', zone: pool.zone, region: pool.region },
  why: `spot in ${pool.zone} at ${usdPerHour(pool.priceMicroUsdPerHour)}: ${why}`,
});

const onDemand = (input: DeadlinePolicyInput, why: string): Proposal => ({
  action: { kind: 'on-demand', region: onDemandRegion(input) },
  why,
});

const WAIT: Proposal = { action: { kind: 'wait' }, why: 'no spot capacity; waiting' };

/** Every tick on-demand: the baseline every saving is measured from. */
export const allOnDemandPolicy: DeadlinePolicy = guarded((input) => onDemand(input, 'all on-demand'));

/** Spot whenever there is some, else wait, until the guard sends the job to on-demand for good. */
export const greedyPolicy: DeadlinePolicy = deadlineGuarded((input) => {
  if (input.placement.kind === 'on-demand') return onDemand(input, 'greedy never leaves on-demand');
  const pool = spotChoice(input);
  return pool ? spot(pool, 'greedy takes any spot') : WAIT;
});

/**
 * Uniform progress, the paper's four rules: take spot whenever there is some
 * and stay until interrupted; when there is none and the job is behind the
 * uniform-progress line, run on-demand; leave on-demand only for spot and
 * only once two restarts ahead of the line (hysteresis); the safety net is the guard.
 */
export const uniformProgressPolicy: DeadlinePolicy = deadlineGuarded((input) => {
  const pool = spotChoice(input);
  if (input.placement.kind === 'on-demand' && (!pool || !isSafelyAhead(input))) {
    return onDemand(input, 'on-demand until spot is back and the job is two restarts ahead of the line');
  }
  if (pool) return spot(pool, 'spot whenever there is some');
  if (!isOnTrack(input)) return onDemand(input, 'behind the uniform-progress line');
  return WAIT;
});
