import type { AuditRecommendation, SpotCandidate } from '../domain/audit/monthly-audit';
import { costOfRun } from '../domain/billing';
import type { Workload } from '../domain/lease';
import { costOfSeconds, type MicroUsd } from '../domain/money';
import { chooseRentalMode } from '../domain/rental-mode';
import { busyTimeByLevel, RESERVATION_TERM_MS, recommendReservedGpus } from '../domain/reservations';
import { concurrencyOf } from './demand-history';
import { REPLAY_INSTANCE_TYPE, type ReplayPrices, replayPrices } from './model';
import type { MonthDemand, RanLease } from './month-demand';
import { replayDemand } from './replay';
import { totalOf } from './report';
import { SpotMarket, type SpotTraces } from './spot-market';
import { MS_PER_HOUR } from './units';

/**
 * What the planner recommends after replaying a tenant's month (the audit's
 * recommendation, field by field), with the replay's own assumptions.
 */
export interface MonthRecommendation
  extends Omit<AuditRecommendation, 'model' | 'estimatedSavingOfPaidMicroUsd'> {
  readonly model: Omit<AuditRecommendation['model'], 'note'> & { readonly assumptions: readonly string[] };
  /** Spot reclaims in the policy's replay. */
  readonly interruptions: number;
}

/**
 * Replays the tenant's month through the planner with the live policies, and
 * sizes the reserved commitment for the next term with `recommendReservedGpus`
 * over the whole month (the replay's own first term has no past to look at, so
 * it commits nothing).
 */
export function recommendForMonth(demand: MonthDemand, spot: SpotTraces): MonthRecommendation {
  const { trace, ran } = demand;
  const prices = replayPrices();
  // One term: the replay's first term commits nothing (no history before the month), and a
  // second one starting on the 31st would pay 30 days of commitment for one day.
  const oneTerm = { ...trace, endMs: Math.min(trace.endMs, trace.originMs + RESERVATION_TERM_MS) };
  const replay = replayDemand(oneTerm, spot, 'tenant month');
  const asRanMicroUsd = asRanCost(ran, new SpotMarket(spot, trace.originMs), prices);
  const policyMicroUsd = totalOf(replay.policy.costMicroUsd);

  const spanMs = trace.endMs - trace.originMs;
  const steady = concurrencyOf(
    trace.leases.filter((lease) => lease.workload !== 'batch'),
    trace.originMs,
  );
  const reservation = recommendReservedGpus({
    history: steady,
    termStartMs: trace.endMs,
    lookbackMs: spanMs,
    reservedMicroUsdPerHour: prices.reservedMicroUsdPerHour,
    onDemandMicroUsdPerHour: prices.onDemandMicroUsdPerHour,
  });
  const busyMs = busyTimeByLevel(steady, trace.originMs, trace.endMs);
  // A month to date ends at the request's millisecond: bill whole seconds, as every cost is.
  let reservedSavingMicroUsd =
    0 - reservation.gpus * costOfSeconds(Math.round(spanMs / 1000), prices.reservedMicroUsdPerHour);
  for (const levelBusyMs of busyMs.slice(0, reservation.gpus)) {
    reservedSavingMicroUsd += costOfSeconds(Math.round(levelBusyMs / 1000), prices.onDemandMicroUsdPerHour);
  }
  const policySavingMicroUsd = asRanMicroUsd - policyMicroUsd;
  const savingMicroUsd = policySavingMicroUsd + reservedSavingMicroUsd;
  return {
    model: {
      instanceType: REPLAY_INSTANCE_TYPE,
      onDemandMicroUsdPerHour: prices.onDemandMicroUsdPerHour,
      reservedMicroUsdPerHour: prices.reservedMicroUsdPerHour,
      assumptions: replay.report.assumptions,
    },
    reservedGpus: reservation.gpus,
    reservedReason: reservation.reason,
    reservedSavingMicroUsd,
    spotCandidates: spotCandidatesOf(ran),
    asRanMicroUsd,
    policyMicroUsd,
    policySavingMicroUsd,
    recommendedMicroUsd: asRanMicroUsd - savingMicroUsd,
    hindsightMicroUsd: replay.hindsight.totalMicroUsd,
    savingShare: asRanMicroUsd === 0 ? 0 : savingMicroUsd / asRanMicroUsd,
    interruptions: replay.policy.interruptions,
  };
}

/**
 * The month at the modes it ran in, at model prices: on-demand at the on-demand
 * rate, spot at the cheapest zone with capacity when the lease started (the
 * price is fixed at launch, as metering does), reserved at the reserved rate
 * for the hours used (no commitments are recorded to charge instead).
 */
function asRanCost(ran: readonly RanLease[], market: SpotMarket, prices: ReplayPrices): MicroUsd {
  let total = 0;
  for (const lease of ran) {
    const spotPrice = market.cheapestAvailableMicroUsdPerHour(market.tickAt(lease.startMs));
    const price =
      lease.mode === 'reserved'
        ? prices.reservedMicroUsdPerHour
        : lease.mode === 'spot'
          ? (spotPrice ?? prices.onDemandMicroUsdPerHour)
          : prices.onDemandMicroUsdPerHour;
    total +=
      lease.gpus * costOfRun({ launchedAtMs: lease.startMs, priceMicroUsdPerHour: price }, lease.endMs);
  }
  return total;
}

/** Leases that ran off spot where the policy, left to itself, picks spot. */
function spotCandidatesOf(ran: readonly RanLease[]): SpotCandidate[] {
  const byWorkload = new Map<Workload, { leases: number; gpuMs: number }>();
  for (const lease of ran) {
    if (lease.mode === 'spot') continue;
    const decision = chooseRentalMode({ workload: lease.workload, gpus: lease.gpus, freeReservedGpus: 0 });
    if (decision.mode !== 'spot') continue;
    const entry = byWorkload.get(lease.workload) ?? { leases: 0, gpuMs: 0 };
    entry.leases += 1;
    entry.gpuMs += lease.gpus * (lease.endMs - lease.startMs);
    byWorkload.set(lease.workload, entry);
  }
  return [...byWorkload].map(([workload, { leases, gpuMs }]) => ({
    workload,
    leases,
    gpuHours: Math.round((gpuMs / MS_PER_HOUR) * 100) / 100,
  }));
}
