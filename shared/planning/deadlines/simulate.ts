import type {
  DeadlineAction,
  DeadlinePolicy,
  DeadlinePolicyInput,
  JobPlacement,
  SpotPoolSignal,
} from '../../domain/deadlines/policy-input';
import {
  allOnDemandMicroUsd,
  DeadlineJobError,
  type DeadlineJobSpec,
  type DeadlineMarket,
  type DeadlineZone,
  jobTicks,
  transferUnits,
  UNITS_PER_MICRO_USD,
} from './market';

export interface JobOutcome {
  readonly costMicroUsd: number;
  readonly finished: boolean;
  /** Ticks from the start to the end of the last piece of work, when it finished. */
  readonly finishedAfterTicks: number | null;
  readonly restarts: number;
  readonly interruptions: number;
  readonly spotTicks: number;
  readonly onDemandTicks: number;
  /** Where the money went, in µ$: the causes of any excess over the offline optimum. */
  readonly breakdown: CostBreakdown;
}

/**
 * The replay's cost split by what bought it. Restarts are the billed ticks
 * that made no progress; on-demand while spot was there is on-demand progress
 * in a tick when some allowed zone had capacity; the spot premium is what
 * spot progress paid over the cheapest zone with capacity in the same tick.
 */
export interface CostBreakdown {
  readonly spotProgressMicroUsd: number;
  readonly onDemandProgressMicroUsd: number;
  readonly restartMicroUsd: number;
  readonly transferMicroUsd: number;
  readonly onDemandWhileSpotTicks: number;
  readonly spotPremiumMicroUsd: number;
  readonly idleTicks: number;
  /** Ticks between the finish and the deadline (0 when late). */
  readonly spareTicks: number;
}

/** Per zone, prefix counts over the trace, so a signal window is two lookups. */
interface ZoneHistory {
  /** Interruptions (capacity there one tick, gone the next) before each tick. */
  readonly losses: Int32Array;
  /** Ticks with capacity before each tick. */
  readonly available: Int32Array;
  /** The last tick without capacity before each tick, -1 when none. */
  readonly lastUnavailable: Int32Array;
  /** The first tick of the outage each tick is in, -1 for a tick with capacity. */
  readonly outageStart: Int32Array;
}

const histories = new WeakMap<DeadlineZone, ZoneHistory>();

function historyOf(zone: DeadlineZone): ZoneHistory {
  const known = histories.get(zone);
  if (known) return known;
  const n = zone.unavailable.length;
  const losses = new Int32Array(n + 1);
  const available = new Int32Array(n + 1);
  const lastUnavailable = new Int32Array(n + 1).fill(-1);
  const outageStart = new Int32Array(n).fill(-1);
  for (let i = 0; i < n; i += 1) {
    const gone = zone.unavailable[i] === 1;
    const lost = gone && i > 0 && zone.unavailable[i - 1] === 0;
    if (gone) outageStart[i] = i > 0 && zone.unavailable[i - 1] === 1 ? (outageStart[i - 1] as number) : i;
    losses[i + 1] = (losses[i] as number) + (lost ? 1 : 0);
    available[i + 1] = (available[i] as number) + (gone ? 0 : 1);
    lastUnavailable[i + 1] = gone ? i : (lastUnavailable[i] as number);
  }
  const history = { losses, available, lastUnavailable, outageStart };
  histories.set(zone, history);
  return history;
}

/** What the control plane would know of each zone at `tick`: the trace now and its trailing window. */
function signalsAt(market: DeadlineMarket, tick: number): SpotPoolSignal[] {
  const from = Math.max(0, tick - market.signalWindowTicks);
  return market.zones.map((zone) => {
    const history = historyOf(zone);
    const lastGone = history.lastUnavailable[tick] as number;
    const outageStart = history.outageStart[tick] as number;
    return {
      zone: zone.zone,
      region: zone.region,
      priceMicroUsdPerHour: zone.priceMicroUsdPerHour[tick] as number,
      available: zone.unavailable[tick] === 0,
      lastCapacityFailureAtMs: lastGone < 0 ? undefined : lastGone * market.tickMs,
      unavailableSinceMs: outageStart < 0 ? undefined : outageStart * market.tickMs,
      recentInterruptions: (history.losses[tick] as number) - (history.losses[from] as number),
      recentAvailableMs:
        ((history.available[tick] as number) - (history.available[from] as number)) * market.tickMs,
      recentWindowMs: (tick - from) * market.tickMs,
    };
  });
}

/** A tick of the cheapest zone with capacity, in price × ms units; infinite when none has any. */
function cheapestSpotUnits(market: DeadlineMarket, tick: number): number {
  let best = Number.POSITIVE_INFINITY;
  for (const zone of market.zones) {
    if (zone.unavailable[tick] === 0)
      best = Math.min(best, (zone.priceMicroUsdPerHour[tick] as number) * market.tickMs);
  }
  return best;
}

function samePlacement(placement: JobPlacement, action: DeadlineAction): boolean {
  if (placement.kind === 'spot') return action.kind === 'spot' && action.zone === placement.zone;
  if (placement.kind === 'on-demand')
    return action.kind === 'on-demand' && action.region === placement.region;
  return action.kind === 'wait';
}

/**
 * Replays one job tick by tick under `policy`. Each tick: a spot run whose zone
 * lost capacity is interrupted (progress is checkpointed continuously, so only
 * the run is lost); the policy decides; a start or a move pays the restart
 * (whole ticks of billed time without progress) and, across regions, the
 * checkpoint's transfer; a run is billed the tick at its price (spot at the
 * trace's price of the tick, on-demand at the offer's). A spot launch into a
 * zone without capacity is refused and the job waits the tick.
 */
export function simulateJob(
  market: DeadlineMarket,
  job: DeadlineJobSpec,
  policy: DeadlinePolicy,
): JobOutcome {
  const ticks = jobTicks(market, job);
  const tickMs = market.tickMs;
  const zones = new Map(market.zones.map((zone) => [zone.zone, zone]));
  const offers = new Map(market.onDemand.map((offer) => [offer.region, offer]));
  const jobTerms = {
    submittedAtMs: job.startTick * tickMs,
    deadlineMs: (job.startTick + ticks.deadline) * tickMs,
    workMs: ticks.work * tickMs,
    restartMs: job.restartMs,
    checkpointGb: job.checkpointGb,
    onDemandCostMicroUsd: allOnDemandMicroUsd(market, job),
  };
  let placement: JobPlacement = { kind: 'waiting' };
  let checkpointRegion = job.homeRegion;
  let done = 0;
  let overhead = 0;
  let units = 0;
  const counts = { restarts: 0, interruptions: 0, spotTicks: 0, onDemandTicks: 0 };
  const split = {
    spotProgress: 0,
    onDemandProgress: 0,
    restart: 0,
    transfer: 0,
    onDemandWhileSpotTicks: 0,
    spotPremium: 0,
    idleTicks: 0,
  };
  let t = 0;
  for (; t < ticks.deadline && done < ticks.work; t += 1) {
    const tick = job.startTick + t;
    if (placement.kind === 'spot' && zones.get(placement.zone)?.unavailable[tick] !== 0) {
      counts.interruptions += 1;
      placement = { kind: 'waiting' };
    }
    const input: DeadlinePolicyInput = {
      job: jobTerms,
      nowMs: tick * tickMs,
      tickMs,
      doneMs: done * tickMs,
      placement,
      checkpointRegion,
      spot: signalsAt(market, tick),
      onDemand: market.onDemand,
      transferCosts: market.transferCosts,
      spentMicroUsd: units / UNITS_PER_MICRO_USD,
    };
    const { action } = policy(input);
    let price: number;
    if (action.kind === 'spot') {
      const zone = zones.get(action.zone);
      if (zone?.unavailable[tick] !== 0) {
        placement = { kind: 'waiting' };
        split.idleTicks += 1;
        continue;
      }
      price = zone.priceMicroUsdPerHour[tick] as number;
      counts.spotTicks += 1;
    } else if (action.kind === 'on-demand') {
      const offer = offers.get(action.region);
      if (!offer)
        throw new DeadlineJobError(job, `the policy chose on-demand in ${action.region}, which has no offer`);
      price = offer.priceMicroUsdPerHour;
      counts.onDemandTicks += 1;
    } else {
      placement = { kind: 'waiting' };
      split.idleTicks += 1;
      continue;
    }
    if (!samePlacement(placement, action)) {
      counts.restarts += 1;
      overhead = ticks.restart;
      const moved = transferUnits(market, job.checkpointGb, checkpointRegion, action.region);
      units += moved;
      split.transfer += moved;
      checkpointRegion = action.region;
      placement = action;
    }
    const paid = price * tickMs;
    units += paid;
    if (overhead > 0) {
      overhead -= 1;
      split.restart += paid;
    } else {
      done += 1;
      const cheapest = cheapestSpotUnits(market, tick);
      if (action.kind === 'spot') {
        split.spotProgress += paid;
        split.spotPremium += paid - cheapest;
      } else {
        split.onDemandProgress += paid;
        if (cheapest < Number.POSITIVE_INFINITY) split.onDemandWhileSpotTicks += 1;
      }
    }
  }
  const finished = done >= ticks.work;
  return {
    costMicroUsd: units / UNITS_PER_MICRO_USD,
    finished,
    finishedAfterTicks: finished ? t : null,
    ...counts,
    breakdown: {
      spotProgressMicroUsd: split.spotProgress / UNITS_PER_MICRO_USD,
      onDemandProgressMicroUsd: split.onDemandProgress / UNITS_PER_MICRO_USD,
      restartMicroUsd: split.restart / UNITS_PER_MICRO_USD,
      transferMicroUsd: split.transfer / UNITS_PER_MICRO_USD,
      onDemandWhileSpotTicks: split.onDemandWhileSpotTicks,
      spotPremiumMicroUsd: split.spotPremium / UNITS_PER_MICRO_USD,
      idleTicks: split.idleTicks,
      spareTicks: finished ? ticks.deadline - t : 0,
    },
  };
}
