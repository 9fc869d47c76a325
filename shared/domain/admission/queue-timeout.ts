import type { WaitingLease } from './admission-pass';

const MINUTE_MS = 60_000;

/** How often the admission schedule runs a pass: the longest a wait's end can fall between two. */
export const ADMISSION_SCHEDULE_MINUTES = 1;

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

/**
 * The waits that end after the scheduled pass at `passAtMs` and no later than
 * the next one: a time-out held back until then fails the lease when its wait
 * ends, not at the pass after. The windows of successive passes meet end to
 * end, and a lease waits at least the schedule's minute, so each wait ends in
 * the window of one pass it was queued for.
 */
export function waitsEndingBeforeNextPass<L extends Pick<WaitingLease, 'queuedAtMs' | 'maxWaitMinutes'>>(
  queue: readonly L[],
  passAtMs: number,
): L[] {
  const nextPassMs = passAtMs + ADMISSION_SCHEDULE_MINUTES * MINUTE_MS;
  return queue.filter((lease) => {
    const endsMs = queueDeadlineMs(lease);
    return endsMs > passAtMs && endsMs <= nextPassMs;
  });
}
