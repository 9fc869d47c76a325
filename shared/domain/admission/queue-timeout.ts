import type { WaitingLease } from './admission-pass';

const MINUTE_MS = 60_000;

/** The failure reason of a lease that waited its `maxWaitMinutes` without starting; it never ran or billed. */
export const QUEUE_TIMEOUT = 'QUEUE_TIMEOUT';

/** The instant a waiting lease gives up: `maxWaitMinutes` after it joined the queue. */
export const queueDeadlineMs = (lease: Pick<WaitingLease, 'queuedAtMs' | 'maxWaitMinutes'>): number =>
  lease.queuedAtMs + lease.maxWaitMinutes * MINUTE_MS;

/**
 * Splits the queue at `nowMs`: leases that have waited their whole
 * `maxWaitMinutes` are FAILED with QUEUE_TIMEOUT before the pass runs, so a
 * lease is never admitted after its deadline.
 */
export function splitTimedOut<L extends Pick<WaitingLease, 'queuedAtMs' | 'maxWaitMinutes'>>(
  queue: readonly L[],
  nowMs: number,
): { readonly waiting: L[]; readonly timedOut: L[] } {
  const waiting: L[] = [];
  const timedOut: L[] = [];
  for (const lease of queue) (nowMs >= queueDeadlineMs(lease) ? timedOut : waiting).push(lease);
  return { waiting, timedOut };
}
