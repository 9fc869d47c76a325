import { costOfRun } from '../domain/billing';
import type { MicroUsd } from '../domain/money';
import { replayAssumptions } from './assumptions';
import type { DemandTrace } from './demand-trace';
import { type Hindsight, hindsightCost } from './hindsight';
import { replayPrices } from './model';
import { type RentalMixReport, rentalMixReport } from './report';
import { type PolicyOutcome, simulatePolicy } from './simulate';
import { SpotMarket, type SpotTraces } from './spot-market';

/** Everything one replay found: the report, and the detail behind it for the readable form. */
export interface Replay {
  readonly source: string;
  readonly trace: DemandTrace;
  readonly allOnDemandMicroUsd: MicroUsd;
  readonly policy: PolicyOutcome;
  readonly hindsight: Hindsight;
  readonly report: RentalMixReport;
}

/**
 * Replays a parsed trace against spot traces: the policy, the hindsight bound and
 * the all-on-demand baseline. The monthly audit replays a tenant's own month with it.
 */
export function replayDemand(
  trace: DemandTrace,
  spot: SpotTraces,
  source: string,
  reservationLookbackMs?: number,
): Replay {
  const prices = replayPrices();
  const market = new SpotMarket(spot, trace.originMs);
  const policy = simulatePolicy({ trace, market, prices, reservationLookbackMs });
  const hindsight = hindsightCost(trace, market, prices);
  let allOnDemandMicroUsd = 0;
  let gpuMs = 0;
  for (const lease of trace.leases) {
    const run = { launchedAtMs: lease.startMs, priceMicroUsdPerHour: prices.onDemandMicroUsdPerHour };
    allOnDemandMicroUsd += lease.gpus * costOfRun(run, lease.endMs);
    gpuMs += lease.gpus * (lease.endMs - lease.startMs);
  }
  const report = rentalMixReport({
    trace,
    policy,
    hindsight,
    allOnDemandMicroUsd,
    gpuMs,
    assumptions: replayAssumptions(trace, spot, prices, reservationLookbackMs),
  });
  return { source, trace, allOnDemandMicroUsd, policy, hindsight, report };
}
