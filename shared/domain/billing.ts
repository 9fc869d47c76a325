import { costOfPricedSeconds, type MicroUsd, type PricedSeconds } from './money';
import { changesAfterLaunch, type PricedRun } from './price-changes';

/** AWS bills a started instance for at least one minute. */
export const MINIMUM_BILLED_SECONDS = 60;

/** What has been charged for one instance run so far (the metering checkpoint). */
export interface BillingCheckpoint {
  readonly billedSeconds: number;
  readonly billedMicroUsd: MicroUsd;
}

/**
 * A run and what it pays per hour: on-demand and reserved one price fixed at
 * launch; spot its launch price, then its pool's recorded price changes.
 */
export type InstanceRun = PricedRun;

export interface Charge {
  /** Seconds added by this charge (never negative). */
  readonly seconds: number;
  readonly microUsd: MicroUsd;
  /** The checkpoint after this charge. */
  readonly checkpoint: BillingCheckpoint;
}

/**
 * Seconds billable for a run observed at `atMs`.
 * While running, only whole elapsed seconds count; once ended, the duration is
 * rounded up to the second. Either way the one-minute minimum applies from the
 * first moment: a started instance always owes it.
 */
export function billableSeconds(run: InstanceRun, atMs: number, ended: boolean): number {
  const elapsedMs = Math.max(0, atMs - run.launchedAtMs);
  const elapsed = ended ? Math.ceil(elapsedMs / 1000) : Math.floor(elapsedMs / 1000);
  return Math.max(MINIMUM_BILLED_SECONDS, elapsed);
}

/**
 * The first `seconds` of a run split by price: second k (from launch) is paid
 * at the price in force at its start, except the one-minute minimum, paid at
 * the price in force at launch. A pure function of the run, its price history
 * and `seconds`, so the cost of a prefix never depends on how it was reached.
 */
export function pricedSecondsOf(run: InstanceRun, seconds: number): PricedSeconds[] {
  const stretches: PricedSeconds[] = [];
  let from = 0;
  let price = run.priceMicroUsdPerHour;
  for (const change of changesAfterLaunch(run)) {
    const at = Math.max(MINIMUM_BILLED_SECONDS, Math.ceil((change.fromMs - run.launchedAtMs) / 1000));
    if (at >= seconds) break;
    if (at > from) {
      stretches.push({ seconds: at - from, priceMicroPerHour: price });
      from = at;
    }
    price = change.priceMicroUsdPerHour;
  }
  stretches.push({ seconds: seconds - from, priceMicroPerHour: price });
  return stretches;
}

/** Cost of the first `seconds` of a run, at the prices in force along the way. */
export function costOfBilledSeconds(run: InstanceRun, seconds: number): MicroUsd {
  return costOfPricedSeconds(pricedSecondsOf(run, seconds));
}

/**
 * The charge owed at `atMs` on top of what the checkpoint already holds.
 * Cost is computed on the cumulative seconds and differenced, so any sequence of
 * ticks, late or repeated, adds up to exactly the cost of the whole run.
 * A tick that lands before the checkpoint (out of order) charges nothing.
 */
export function chargeUpTo(
  run: InstanceRun,
  checkpoint: BillingCheckpoint,
  atMs: number,
  ended: boolean,
): Charge {
  const totalSeconds = Math.max(checkpoint.billedSeconds, billableSeconds(run, atMs, ended));
  const totalMicroUsd = costOfBilledSeconds(run, totalSeconds);
  return {
    seconds: totalSeconds - checkpoint.billedSeconds,
    microUsd: totalMicroUsd - checkpoint.billedMicroUsd,
    checkpoint: { billedSeconds: totalSeconds, billedMicroUsd: totalMicroUsd },
  };
}

export const EMPTY_CHECKPOINT: BillingCheckpoint = { billedSeconds: 0, billedMicroUsd: 0 };

/** Total cost of a closed run, e.g. for simulation: max(60, ceil(duration)) × price (prices, for spot). */
export function costOfRun(run: InstanceRun, endedAtMs: number): MicroUsd {
  return chargeUpTo(run, EMPTY_CHECKPOINT, endedAtMs, true).microUsd;
}
