import {
  affordsSpotAfterOnDemand,
  affordsSpotStartAfterFailedOne,
  cheapestOnDemandPrice,
  costOfMs,
  remainingMs,
  restartReserveMs,
  slackMs,
} from './guard';
import type { DeadlinePolicyInput, SpotPoolSignal } from './policy-input';

/**
 * What a spot pool promises from its recent record, read as an alternating
 * process of exponential runs and outages (the simplest model the two numbers
 * each pool reports can fit).
 */
export interface SpotOutlook {
  /** Share of the window the pool had capacity. */
  readonly availability: number;
  /** Mean run before an interruption: time with capacity over interruptions (at least one: the window ends somewhere). */
  readonly meanRunMs: number;
  /** Mean outage, from availability = run / (run + outage); infinite for a pool never seen with capacity. */
  readonly meanOutageMs: number;
}

export function poolOutlook(pool: SpotPoolSignal): SpotOutlook {
  const availability =
    pool.recentWindowMs > 0 ? Math.min(1, pool.recentAvailableMs / pool.recentWindowMs) : 0;
  const meanRunMs = pool.recentAvailableMs / Math.max(1, pool.recentInterruptions);
  const meanOutageMs =
    availability > 0 ? (meanRunMs * (1 - availability)) / availability : Number.POSITIVE_INFINITY;
  return { availability, meanRunMs, meanOutageMs };
}

/**
 * The run a start in `pool` can expect. Spot capacity comes in heavy-tailed
 * spells (in the V100 traces and in any lognormal model alike): a spell that
 * has lasted a while tends to last about as long again, so the expectation is
 * the age of the pool's current spell, never less than its mean run over the
 * window.
 */
export function expectedRunMs(input: DeadlinePolicyInput, pool: SpotPoolSignal): number {
  const failedAt = pool.lastCapacityFailureAtMs;
  const age = pool.available && failedAt !== undefined ? Math.max(0, input.nowMs - failedAt) : 0;
  return Math.max(poolOutlook(pool).meanRunMs, age);
}

/**
 * The job's outlook: that of the allowed pool with the most progress per unit
 * of time (availability × the share of a mean run left after a restart).
 * Not the pools together: in the traces pools of one region lose capacity
 * together, and pools of other regions cost a checkpoint move to reach.
 */
export function spotOutlook(input: DeadlinePolicyInput): SpotOutlook {
  const restart = restartReserveMs(input);
  let best: SpotOutlook = { availability: 0, meanRunMs: 0, meanOutageMs: Number.POSITIVE_INFINITY };
  let bestRate = -1;
  for (const pool of input.spot) {
    const outlook = poolOutlook(pool);
    const rate =
      outlook.meanRunMs > 0
        ? (outlook.availability * Math.max(0, outlook.meanRunMs - restart)) / outlook.meanRunMs
        : 0;
    if (rate > bestRate) {
      best = outlook;
      bestRate = rate;
    }
  }
  return best;
}

/**
 * Slack the rest of the job should keep for restarts: each interruption costs
 * one restart wherever the job resumes (the one onto on-demand at the end is
 * already kept out of the slack). Over the remaining work (the job then runs
 * without a break) it meets about n = remaining / (run + outage)
 * interruptions; the reserve is a restart for each of n plus one standard
 * deviation of a Poisson count. Two restarts each (onto on-demand and back)
 * was the first version: it sent jobs to on-demand while waiting would still
 * have done (measured in BENCHMARKS.md, both families).
 */
export function restartsReserveMs(input: DeadlinePolicyInput, outlook: SpotOutlook): number {
  const cycle = outlook.meanRunMs + outlook.meanOutageMs;
  if (!Number.isFinite(cycle) || cycle <= 0) return 0;
  const interruptions = remainingMs(input) / cycle;
  return restartReserveMs(input) * (interruptions + Math.sqrt(interruptions));
}

/**
 * How much longer the job can expect to wait for spot in one of `pools`: the
 * soonest back (none for a pool with capacity). Outages are heavy-tailed like
 * spells (the mean remaining outage grows with its age in every zone of the
 * V100 traces: us-east-2a 5.5 h at age 0, 10 h at 1 h, 15 h at 4 h), so each
 * pool's is expected to last as long again as it has, never less than its
 * mean outage over the window.
 */
export function expectedOutageMs(input: DeadlinePolicyInput, pools: readonly SpotPoolSignal[]): number {
  let soonest = Number.POSITIVE_INFINITY;
  for (const pool of pools) {
    if (pool.available) return 0;
    const age =
      pool.unavailableSinceMs === undefined ? 0 : Math.max(0, input.nowMs - pool.unavailableSinceMs);
    soonest = Math.min(soonest, Math.max(age, poolOutlook(pool).meanOutageMs));
  }
  return soonest;
}

/**
 * Whether to wait out an outage rather than run on-demand through it.
 * On-demand through an outage spends no slack, so it keeps slack for
 * restarts on spot later; that is worth it only while the way back to spot is
 * open (`affordsSpotAfterOnDemand`). Where it is not, on-demand now is
 * on-demand to the deadline, and waiting costs no more (on-demand later costs
 * the same) while spot may come back meanwhile: the job waits, as long as its
 * slack still covers a spot start. With the way back open it waits while the
 * slack, once the outage expected now in the pools cheaper than on-demand is
 * over, still exceeds what the rest of the job will need for restarts: above
 * that line a tick of waiting costs nothing (on-demand later can still fill
 * any shortfall during outages); below it, waiting through a long outage
 * spends the slack the job would need to return to spot later.
 */
export function canWaitForSpot(input: DeadlinePolicyInput, outlook: SpotOutlook): boolean {
  if (!slackCoversSpotStart(input)) return false;
  const cheapestSpot = Math.min(...input.spot.map((pool) => pool.priceMicroUsdPerHour));
  if (!affordsSpotAfterOnDemand(input, cheapestSpot)) return true;
  const onDemandPrice = cheapestOnDemandPrice(input);
  const worthWaitingFor = input.spot.filter((pool) => pool.priceMicroUsdPerHour < onDemandPrice);
  return slackMs(input) - expectedOutageMs(input, worthWaitingFor) > slackReserveMs(input, outlook);
}

/** Slack the rest of the job wants kept: the restarts its interruptions will need, and one spot start. */
export function slackReserveMs(input: DeadlinePolicyInput, outlook: SpotOutlook): number {
  return restartsReserveMs(input, outlook) + restartReserveMs(input);
}

/** Whether the slack is already short of `slackReserveMs`: every restart from here brings on-demand closer. */
export function slackShortOfRestarts(input: DeadlinePolicyInput, outlook: SpotOutlook): boolean {
  return slackMs(input) < slackReserveMs(input, outlook);
}

/**
 * Progress a spot start in `pool` is expected to make, exponential runs of the
 * pool's mean: the run must outlast the restart (chance e^(-restart/run)),
 * then, being memoryless, goes on for a mean run, at most the rest of the work.
 */
export function expectedSpotProgressMs(input: DeadlinePolicyInput, pool: SpotPoolSignal): number {
  const run = expectedRunMs(input, pool);
  if (run <= 0) return 0;
  const restart = restartReserveMs(input);
  return run * Math.exp(-restart / run) * (1 - Math.exp(-remainingMs(input) / run));
}

/**
 * Whether a spot start in `pool` can make progress before the guard would pull
 * it: its restart spends slack, and below zero the job must be on on-demand.
 */
export function slackCoversSpotStart(input: DeadlinePolicyInput): boolean {
  return slackMs(input) >= restartReserveMs(input);
}

/**
 * Whether a job on on-demand gains by starting spot in `pool` now: the
 * progress the start is expected to make at spot instead of on-demand must pay
 * for the restart onto spot and, unless the run finishes the work, the one
 * back onto on-demand. When the slack is scarce (`slackIsScarce`: the caller
 * passes `!canWaitForSpot`, which also counts the outage expected now, not
 * `slackShortOfRestarts`, which did worse here), the restarts' time is slack that
 * later outages would have waited out, so it is charged too: at the saving
 * on-demand will then forgo, spot's price short of on-demand's. A last try at
 * spot is also charged what it risks (`lastTryRiskMicroUsd`).
 */
export function spotRunPays(
  input: DeadlinePolicyInput,
  pool: SpotPoolSignal,
  onDemandPrice: number,
  slackIsScarce: boolean,
): boolean {
  const restart = restartReserveMs(input);
  const run = expectedRunMs(input, pool);
  const interrupted = run > 0 ? 1 - Math.exp(-(remainingMs(input) + restart) / run) : 1;
  const gain = costOfMs(onDemandPrice - pool.priceMicroUsdPerHour, expectedSpotProgressMs(input, pool));
  const restarts =
    costOfMs(pool.priceMicroUsdPerHour, restart) + interrupted * costOfMs(onDemandPrice, restart);
  const slack = slackIsScarce
    ? costOfMs(onDemandPrice - pool.priceMicroUsdPerHour, restart * (1 + interrupted))
    : 0;
  return gain > restarts + slack + lastTryRiskMicroUsd(input, pool, onDemandPrice);
}

/**
 * Whether a start in `pool` is the job's last try at spot: were it interrupted
 * before it had made any progress (billed its restart and a tick), the budget
 * (`affordsSpotStartAfterFailedOne`) or the slack would not carry another.
 */
export function isLastSpotTry(input: DeadlinePolicyInput, pool: SpotPoolSignal): boolean {
  const restart = restartReserveMs(input);
  const slackAfterFailure = slackMs(input) - restart - input.tickMs;
  return slackAfterFailure < restart || !affordsSpotStartAfterFailedOne(input, pool);
}

/**
 * What a last try at spot risks (`isLastSpotTry`; nothing otherwise): cut off
 * before it has paid for itself (its restart, a tick, and the progress whose
 * saving buys the next start), it leaves the job on on-demand to the end, and
 * the job forgoes the spot progress the pool could still have given it (its
 * availability over the remaining work) at spot's saving. In the V100 traces
 * this was the commonest way to end up paying all on-demand: one return from
 * on-demand interrupted within minutes, and the budget closed for good.
 */
export function lastTryRiskMicroUsd(
  input: DeadlinePolicyInput,
  pool: SpotPoolSignal,
  onDemandPrice: number,
): number {
  if (!isLastSpotTry(input, pool)) return 0;
  const saving = onDemandPrice - pool.priceMicroUsdPerHour;
  const startMs = restartReserveMs(input) + input.tickMs;
  const paidBackMs = startMs + (startMs * pool.priceMicroUsdPerHour) / saving;
  const run = expectedRunMs(input, pool);
  const cutOff = run > 0 ? 1 - Math.exp(-paidBackMs / run) : 1;
  return cutOff * costOfMs(saving, poolOutlook(pool).availability * remainingMs(input));
}

/**
 * Share of the time at least one of `pools` is expected to have capacity:
 * the best pool of each region (in the traces a region's pools lose capacity
 * together), regions taken as independent.
 */
export function combinedAvailability(pools: readonly SpotPoolSignal[]): number {
  const byRegion = new Map<string, number>();
  for (const pool of pools) {
    byRegion.set(pool.region, Math.max(byRegion.get(pool.region) ?? 0, poolOutlook(pool).availability));
  }
  let none = 1;
  for (const availability of byRegion.values()) none *= 1 - availability;
  return 1 - none;
}

/**
 * Whether `pools` alone are expected to do the rest of the work in the time
 * it has left: the work at their combined availability, and the restarts
 * their interruptions will cost (`restartsReserveMs` of the best of them).
 */
export function poolsCanFinish(input: DeadlinePolicyInput, pools: readonly SpotPoolSignal[]): boolean {
  const availability = combinedAvailability(pools);
  if (availability <= 0) return false;
  const wait = expectedOutageMs(input, pools);
  const needed =
    wait +
    remainingMs(input) / availability +
    restartsReserveMs(input, spotOutlook({ ...input, spot: pools }));
  return needed <= slackMs(input) + remainingMs(input);
}
