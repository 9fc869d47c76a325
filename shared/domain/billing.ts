import { costOfSeconds, type MicroUsd } from './money';

/** AWS bills a started instance for at least one minute. */
export const MINIMUM_BILLED_SECONDS = 60;

/** What has been charged for one instance run so far (the metering checkpoint). */
export interface BillingCheckpoint {
  readonly billedSeconds: number;
  readonly billedMicroUsd: MicroUsd;
}

export interface InstanceRun {
  readonly launchedAtMs: number;
  readonly priceMicroUsdPerHour: MicroUsd;
}

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
  const totalMicroUsd = costOfSeconds(totalSeconds, run.priceMicroUsdPerHour);
  return {
    seconds: totalSeconds - checkpoint.billedSeconds,
    microUsd: totalMicroUsd - checkpoint.billedMicroUsd,
    checkpoint: { billedSeconds: totalSeconds, billedMicroUsd: totalMicroUsd },
  };
}

export const EMPTY_CHECKPOINT: BillingCheckpoint = { billedSeconds: 0, billedMicroUsd: 0 };

/** Total cost of a closed run, e.g. for simulation: max(60, ceil(duration)) × price. */
export function costOfRun(run: InstanceRun, endedAtMs: number): MicroUsd {
  return chargeUpTo(run, EMPTY_CHECKPOINT, endedAtMs, true).microUsd;
}
