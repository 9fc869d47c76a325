import type { DeadlinePolicyInput, SpotPoolSignal } from './policy-input';

/**
 * The uniform-progress line of "Can't Be Late" (NSDI '24): the work a job
 * would have done by `atMs` progressing at one steady rate from submission to
 * the deadline.
 */
export function expectedDoneMs(input: DeadlinePolicyInput, atMs: number): number {
  const { submittedAtMs, deadlineMs, workMs } = input.job;
  return (workMs * (atMs - submittedAtMs)) / (deadlineMs - submittedAtMs);
}

/** At or ahead of the line now: the job may wait for spot rather than pay for on-demand. */
export function isOnTrack(input: DeadlinePolicyInput): boolean {
  return input.doneMs >= expectedDoneMs(input, input.nowMs);
}

/**
 * Ahead of the line two restarts from now: a job on on-demand leaves it only
 * then (the paper's hysteresis), so that one interruption does not send it
 * straight back.
 */
export function isSafelyAhead(input: DeadlinePolicyInput): boolean {
  return input.doneMs >= expectedDoneMs(input, input.nowMs + 2 * input.job.restartMs);
}

/** The spot pool the job runs in, while it still has capacity. */
export function currentSpotPool(input: DeadlinePolicyInput): SpotPoolSignal | undefined {
  const { placement } = input;
  if (placement.kind !== 'spot') return undefined;
  return input.spot.find((pool) => pool.zone === placement.zone && pool.available);
}

export const usdPerHour = (priceMicroUsdPerHour: number) =>
  `$${(priceMicroUsdPerHour / 1_000_000).toFixed(3)}/h`;
