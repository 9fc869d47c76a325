import type { RentalMode } from '../domain/lease';
import { costOfSeconds, type MicroUsd } from '../domain/money';
import {
  breakEvenUtilization,
  busyTimeByLevel,
  commitmentCost,
  gpusWorthReserving,
  RESERVATION_TERM_MS,
} from '../domain/reservations';
import { concurrencyOf } from './demand-history';
import type { DemandTrace } from './demand-trace';
import type { ReplayPrices } from './model';
import type { SpotMarket } from './spot-market';
import { termStartsOf } from './terms';

export interface HindsightTerm {
  readonly termStartMs: number;
  readonly gpus: number;
}

/** The cheapest bill with perfect knowledge of the trace: the yardstick for the policy. */
export interface Hindsight {
  readonly costMicroUsd: Readonly<Record<RentalMode, MicroUsd>>;
  readonly totalMicroUsd: MicroUsd;
  readonly reservedTerms: readonly HindsightTerm[];
}

/**
 * Knowing every lease in advance: per term, reserve every GPU level that the
 * term's training and inference keep busy above break-even (which minimises
 * commitment + on-demand cost for that term exactly); run the rest of them
 * on-demand; run batch, tick by tick, on the cheapest zone with spot capacity,
 * or on-demand when no zone has any. Fluid: no restarts and no one-minute
 * minimum, so in practice a lower bound for the policy.
 */
export function hindsightCost(trace: DemandTrace, market: SpotMarket, prices: ReplayPrices): Hindsight {
  const cost: Record<RentalMode, MicroUsd> = { 'on-demand': 0, reserved: 0, spot: 0 };
  const steady = trace.leases.filter((lease) => lease.workload !== 'batch');
  const steadyDemand = concurrencyOf(steady, trace.originMs);
  const utilization = breakEvenUtilization(prices.reservedMicroUsdPerHour, prices.onDemandMicroUsdPerHour);
  const reservedTerms: HindsightTerm[] = [];
  for (const termStartMs of termStartsOf(trace)) {
    const busyMs = busyTimeByLevel(steadyDemand, termStartMs, termStartMs + RESERVATION_TERM_MS);
    const gpus = gpusWorthReserving(busyMs, RESERVATION_TERM_MS, utilization);
    reservedTerms.push({ termStartMs, gpus });
    cost.reserved += commitmentCost(gpus, prices.reservedMicroUsdPerHour);
    for (const levelBusyMs of busyMs.slice(gpus)) {
      cost['on-demand'] += costOfSeconds(Math.round(levelBusyMs / 1000), prices.onDemandMicroUsdPerHour);
    }
  }

  const batchDemand = concurrencyOf(
    trace.leases.filter((lease) => lease.workload === 'batch'),
    trace.originMs,
  );
  for (const segment of batchDemand) {
    // Prices and capacity hold still within a tick, so a tick is the finest step that matters.
    for (let fromMs = segment.fromMs; fromMs < segment.toMs; ) {
      const tick = market.tickAt(fromMs);
      const toMs = Math.min(segment.toMs, market.tickStartMs(tick + 1));
      const gpuSeconds = Math.round((segment.gpus * (toMs - fromMs)) / 1000);
      const spotPrice = market.cheapestAvailableMicroUsdPerHour(tick);
      if (spotPrice === null) cost['on-demand'] += costOfSeconds(gpuSeconds, prices.onDemandMicroUsdPerHour);
      else cost.spot += costOfSeconds(gpuSeconds, spotPrice);
      fromMs = toMs;
    }
  }
  return { costMicroUsd: cost, totalMicroUsd: cost['on-demand'] + cost.reserved + cost.spot, reservedTerms };
}
