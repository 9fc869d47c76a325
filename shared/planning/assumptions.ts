import { MINIMUM_BILLED_SECONDS } from '../domain/billing';
import { formatUsd } from '../domain/money';
import { FAILED_POOL_BACKOFF_MS } from '../domain/placement';
import { DEFAULT_RESERVATION_LOOKBACK_MS, RESERVATION_TERM_MS } from '../domain/reservations';
import { RECLAIM_WARNING_MS, RESTART_MS } from '../domain/spot-reclaim';
import type { DemandTrace } from './demand-trace';
import { REPLAY_INSTANCE_TYPE, RESERVED_REGION, type ReplayPrices } from './model';
import type { SpotTraces } from './spot-market';
import { MS_PER_DAY } from './units';

/** The model behind the figures, in words: printed with every replay and kept in its JSON. */
export function replayAssumptions(
  trace: DemandTrace,
  spot: SpotTraces,
  prices: ReplayPrices,
  lookbackMs: number = DEFAULT_RESERVATION_LOOKBACK_MS,
): string[] {
  const onDemand = `$${formatUsd(prices.onDemandMicroUsdPerHour)}/h`;
  const reserved = `$${formatUsd(prices.reservedMicroUsdPerHour)}/h`;
  const ratio = (prices.reservedMicroUsdPerHour / prices.onDemandMicroUsdPerHour).toFixed(2);
  const reservedSource = prices.reservedIsStandIn
    ? `${ratio} x on-demand, the catalog's median reserved/on-demand ratio, as no 1-year rate is published`
    : 'the published 1-year rate';
  const termDays = RESERVATION_TERM_MS / MS_PER_DAY;
  const tickSeconds = spot.tickMs / 1000;
  return [
    'A lease holds its GPUs from its start to its end; the policy never knows the end before it happens.',
    ...trace.notes,
    `Every GPU is one ${REPLAY_INSTANCE_TYPE} (1x V100): on-demand ${onDemand} (${RESERVED_REGION}); reserved ` +
      `${reserved} (${reservedSource}), committed in ${termDays}-day terms back to back from time zero and ` +
      'paid in full whether used or not, the last term too even where it outlasts the trace.',
    `Spot: ${spot.zones.length} zones (${spot.zones.map((z) => z.zone).join(', ')}); capacity from the V100 ` +
      `availability traces (1 = none) and prices from the V100 price traces; trace second t reads tick ` +
      `floor(t / ${tickSeconds}) mod ${spot.ticks}, so the spot history repeats over a longer demand trace. ` +
      'A zone with capacity takes any number of instances.',
    `When a zone loses capacity, every spot instance there gets the ${RECLAIM_WARNING_MS / 60_000}-minute ` +
      'warning, works on (billed) until it is taken, and the lease resumes in the cheapest other spot zone ' +
      `with capacity, else on-demand, after a ${RESTART_MS / 60_000}-minute restart that is billed and ends the ` +
      'lease that much later. A lease that finishes within the warning just ends.',
    `Billing: per second with a ${MINIMUM_BILLED_SECONDS}-second minimum per instance run; spot instances at the ` +
      "zone's price when they launched, as the metering function records it (the V100 price traces change " +
      'about every six hours); reserved GPUs cost nothing per use beyond their term.',
    "Policy = the control plane's own code: chooseRentalMode per lease (training and inference on reserved " +
      'while the commitment has room, else on-demand; batch on spot with on-demand fallback; inference never on ' +
      `spot); choosePool per launch (cheapest pool with capacity; a pool that failed sits out ` +
      `${FAILED_POOL_BACKOFF_MS / 60_000} minutes); recommendReservedGpus at each term start from the last ` +
      `${lookbackMs / MS_PER_DAY} days of reserved + on-demand demand only (so 0 GPUs in the first term); ` +
      'planReclaim on each spot reclaim; planReturnToSpot and assignReservedGpus as below.',
    'Reserved GPUs carry the instances assignReservedGpus picks after every change: leases that cannot be ' +
      'interrupted before batch, oldest first, the last one possibly in part. Moving an instance on or off ' +
      'reserved changes its billing only (same instance type, no restart), as a reserved-instance discount ' +
      'applies to running instances; so a smaller term moves the youngest leases to on-demand.',
    `A batch lease that fell back to on-demand is looked at every ${tickSeconds}-second spot tick; ` +
      'planReturnToSpot moves it back when the saving over the time it probably has left (taken equal to its ' +
      `age) beats a ${RESTART_MS / 60_000}-minute restart, which is billed and ends the lease that much later.`,
    'interruptions counts reclaims that made a lease restart elsewhere.',
    `Hindsight knows the whole trace: per term the reserved count that minimises that term's cost (every GPU ` +
      `level training + inference keep busy more than ${ratio} of the term), the rest of them on-demand, batch on ` +
      `the cheapest zone with spot capacity in every ${tickSeconds}-second tick (on-demand when none has any), ` +
      'with no restarts and no one-minute minimum: in practice a lower bound (only a spot price rising during ' +
      'a run, which the policy does not pay, could put the policy below it).',
    'gpuHours and allOnDemandUsd use the trace durations: every lease on-demand, no restarts.',
  ];
}
