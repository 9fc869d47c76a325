import { FAILED_POOL_BACKOFF_MS } from '../placement';
import {
  cheapestOnDemandPrice,
  costOfMs,
  guarded,
  onDemandRegion,
  type Proposal,
  remainingMs,
  restartReserveMs,
  strandsCheckpoint,
  transferMicroUsd,
  withinBudget,
} from './guard';
import type { DeadlinePolicy, DeadlinePolicyInput, SpotPoolSignal } from './policy-input';
import {
  canWaitForSpot,
  expectedRunMs,
  isLastSpotTry,
  poolsCanFinish,
  slackCoversSpotStart,
  slackShortOfRestarts,
  spotOutlook,
  spotRunPays,
} from './spot-outlook';
import { currentSpotPool, isOnTrack, usdPerHour } from './uniform-progress';

const MS_PER_HOUR = 3_600_000;

/**
 * How much cheaper, per unit of progress with the restart and the move paid,
 * another pool must be before a running job leaves its pool for it. Chosen
 * on the first half of the benchmark's start times (0.2 moved too eagerly,
 * 0.5 hardly moved) and reported on the second half (BENCHMARKS.md).
 */
export const MOVE_SAVING = 0.3;

/** A pool with capacity now, not marked unavailable within the back-off, and cheaper than on-demand. */
function isOpen(input: DeadlinePolicyInput, pool: SpotPoolSignal, onDemandPrice: number): boolean {
  const failedAt = pool.lastCapacityFailureAtMs;
  const backedOff = failedAt !== undefined && input.nowMs - failedAt < FAILED_POOL_BACKOFF_MS;
  return pool.available && !backedOff && pool.priceMicroUsdPerHour < onDemandPrice;
}

/** Whether the job runs in `pool` now. */
const isCurrent = (input: DeadlinePolicyInput, pool: SpotPoolSignal) =>
  input.placement.kind === 'spot' && input.placement.zone === pool.zone;

/**
 * Micro-dollars per millisecond of progress in the pool. Staying where the job
 * runs costs the price alone. A (re)start pays its restart and the checkpoint's
 * move, spread over the run the pool promises (`expectedRunMs`: its current
 * spell's age, at least its mean run), at most the rest of the job, at least
 * one productive tick so that a churning pool stays a last resort. With the
 * slack already short of what the remaining restarts need (`slackShort`), the
 * restart's time is slack the job will make good on on-demand before the end,
 * so it is charged too, at spot's saving on on-demand: a pool whose short
 * spells cost a restart each is then dearer than its price says. A move to
 * a region the budget could not bring the checkpoint back from after a failed
 * start (`strandsCheckpoint`) is charged both ways: on all 9 V100 zones a first
 * start far from home that was interrupted early left the job shut in there,
 * running on-demand while the other regions had spot.
 */
function costPerProgressMs(input: DeadlinePolicyInput, pool: SpotPoolSignal, slackShort: boolean): number {
  if (isCurrent(input, pool)) return pool.priceMicroUsdPerHour / MS_PER_HOUR;
  const reserve = restartReserveMs(input);
  const promised = expectedRunMs(input, pool);
  const runMs = Math.max(reserve + input.tickMs, Math.min(promised, reserve + remainingMs(input)));
  const moves = strandsCheckpoint(input, pool) ? 2 : 1;
  const moveMicroUsd = moves * transferMicroUsd(input, input.checkpointRegion, pool.region);
  const slackMicroUsd = slackShort
    ? costOfMs(cheapestOnDemandPrice(input) - pool.priceMicroUsdPerHour, reserve)
    : 0;
  return (costOfMs(pool.priceMicroUsdPerHour, runMs) + moveMicroUsd + slackMicroUsd) / (runMs - reserve);
}

/**
 * Whether a job off on-demand should pass over `pool` and wait for pools
 * whose progress costs less (`perMs`: each pool's `costPerProgressMs`): they
 * are expected to do the rest in time (`poolsCanFinish`). With several zones
 * the cheapest spot has the least capacity (in the V100 traces us-east-2 and
 * us-west-2 cost 0.918 $/h with capacity 10-32 % of the time, us-east-1
 * 1.2-1.7 $/h at 41-83 %): a job with slack to spare waits for the cheap ones
 * rather than starting in a dear one and staying there until it is interrupted.
 */
function cheaperPoolsWillDo(
  input: DeadlinePolicyInput,
  pool: SpotPoolSignal,
  perMs: ReadonlyMap<SpotPoolSignal, number>,
): boolean {
  if (input.placement.kind === 'on-demand' || isCurrent(input, pool)) return false;
  const own = perMs.get(pool) as number;
  const cheaper = input.spot.filter((other) => other !== pool && (perMs.get(other) as number) < own);
  return cheaper.length > 0 && poolsCanFinish(input, cheaper);
}

function bestSpot(
  input: DeadlinePolicyInput,
  slackShort: boolean,
): { pool: SpotPoolSignal; perMs: number } | null {
  // A start whose restart the slack cannot cover is pulled onto on-demand before it makes progress.
  if (!slackCoversSpotStart(input)) return null;
  const onDemandPrice = cheapestOnDemandPrice(input);
  const costs = new Map(input.spot.map((pool) => [pool, costPerProgressMs(input, pool, slackShort)]));
  let best: { pool: SpotPoolSignal; perMs: number } | null = null;
  for (const pool of input.spot) {
    // A pool the guard would refuse is no choice: proposing it would send the job to on-demand instead.
    if (!isOpen(input, pool, onDemandPrice) || cheaperPoolsWillDo(input, pool, costs)) continue;
    // A start must afford its whole restart: pulled onto on-demand halfway, it would have paid for nothing.
    const startMs = isCurrent(input, pool) ? input.tickMs : restartReserveMs(input) + input.tickMs;
    if (!withinBudget(input, { kind: 'spot', zone: pool.zone, region: pool.region }, pool, startMs)) continue;
    const perMs = costs.get(pool) as number;
    if (best === null || perMs < best.perMs) best = { pool, perMs };
  }
  return best;
}

/**
 * Whether no spot start, in any allowed pool and whatever its capacity, fits
 * the budget: failed starts have spent the risk allowance. Waiting does not
 * change that (nothing is billed and no work is done meanwhile), so the job
 * would only idle until the deadline sent it to on-demand at the same cost.
 * An empty pool listing says nothing of the budget (it may be a listing that
 * failed for a moment), so it shuts nothing out.
 */
function budgetShutsOutSpot(input: DeadlinePolicyInput): boolean {
  const startMs = restartReserveMs(input) + input.tickMs;
  return (
    input.spot.length > 0 &&
    input.spot.every(
      (pool) => !withinBudget(input, { kind: 'spot', zone: pool.zone, region: pool.region }, pool, startMs),
    )
  );
}

const NO_OPEN_POOL_ON_DEMAND = 'no open spot pool; staying rather than paying another restart later';
const SHUT_OUT_OF_SPOT = 'no spot start fits the budget any more';

function stayOnDemandWhy(input: DeadlinePolicyInput, pool: SpotPoolSignal): string {
  return isLastSpotTry(input, pool)
    ? `spot in ${pool.zone} would be the last try the budget or the slack allows, and would not pay for its restarts and what it risks`
    : 'spot there would not pay for its restarts';
}

function onSpot(pool: SpotPoolSignal, why: string): Proposal {
  return {
    action: { kind: 'spot', zone: pool.zone, region: pool.region },
    why: `spot in ${pool.zone} at ${usdPerHour(pool.priceMicroUsdPerHour)}: ${why}`,
  };
}

function onDemandNow(input: DeadlinePolicyInput, why: string): Proposal {
  const region = onDemandRegion(input);
  return { action: { kind: 'on-demand', region }, why: `on-demand in ${region}: ${why}` };
}

function propose(input: DeadlinePolicyInput): Proposal {
  const outlook = spotOutlook(input);
  const slackShort = slackShortOfRestarts(input, outlook);
  const best = bestSpot(input, slackShort);
  const current = currentSpotPool(input);
  const { placement } = input;
  const onDemandPrice = cheapestOnDemandPrice(input);
  const canWait = canWaitForSpot(input, outlook);
  if (placement.kind === 'on-demand') {
    if (best && spotRunPays(input, best.pool, onDemandPrice, !canWait)) {
      return onSpot(best.pool, 'its expected progress saves more than the restarts it costs, back to spot');
    }
    // Stopping to wait would only buy another restart once the job needs on-demand again.
    if (best) return { action: placement, why: stayOnDemandWhy(input, best.pool) };
    return {
      action: placement,
      why: budgetShutsOutSpot(input) ? `${SHUT_OUT_OF_SPOT}: on-demand to the end` : NO_OPEN_POOL_ON_DEMAND,
    };
  }
  if (current && best && best.pool.zone !== current.zone) {
    const stayPerMs = costPerProgressMs(input, current, slackShort);
    if (best.perMs < (1 - MOVE_SAVING) * stayPerMs) {
      return onSpot(
        best.pool,
        `progress there costs under ${1 - MOVE_SAVING} of staying in ${current.zone}, restart and move paid`,
      );
    }
  }
  if (current) return onSpot(current, 'still has capacity: stays until interrupted');
  if (best) return onSpot(best.pool, 'the cheapest progress after restart and move');
  if (budgetShutsOutSpot(input)) {
    return onDemandNow(
      input,
      `${SHUT_OUT_OF_SPOT}, so on-demand now costs what it would later and finishes sooner`,
    );
  }
  // On or ahead of the uniform-progress line waiting is what the paper's policy does too, whatever the reserve says.
  if (!canWait && !isOnTrack(input)) {
    return onDemandNow(
      input,
      slackCoversSpotStart(input)
        ? 'no open spot pool, and the slack left once the outage expected now is over would be short of what the remaining interruptions will need for restarts'
        : 'the slack no longer covers a spot restart',
    );
  }
  return {
    action: { kind: 'wait' },
    why: 'no open spot pool, and the slack still covers waiting beyond the restarts the rest will need',
  };
}

/**
 * gpurent's deadline policy, behind the guard that keeps the deadline and the
 * cost of all on-demand. Spot wherever a unit of progress is cheapest after
 * the restart and the checkpoint's move (both ways where a failed start would
 * strand it; with scarce slack, the restart's time too), spread over the run
 * the pool's current spell promises, among the pools the guard can afford for the whole
 * restart and only while the slack covers it; a running job stays in its pool until
 * interrupted unless another's progress costs under 1 - MOVE_SAVING of its
 * own, and a job not yet running passes over a pool for pools whose progress
 * costs less when they can do the rest in time. With no spot open it waits
 * while the slack, once the outage expected now is over, still exceeds what
 * the remaining interruptions will need in restarts (`canWaitForSpot`, which
 * also waits wherever on-demand now would be on-demand to the end, unless no
 * spot start fits the budget any more: then it finishes on-demand at once);
 * below that it runs on-demand through the outage, and leaves on-demand for spot
 * whenever the start's expected progress pays for its restarts and, on its
 * last affordable try, for the spot it risks forgoing.
 */
export const deadlinePolicy: DeadlinePolicy = guarded(propose);
