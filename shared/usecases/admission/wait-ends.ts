import { mapWithConcurrency } from '../../concurrency';
import type { QueuedLease } from '../../domain/admission/admission-pass';
import { queueDeadlineMs, waitsEndingBeforeNextPass } from '../../domain/admission/queue-timeout';
import { type AdmissionPassControl, failTimedOut, LEASES_IN_FLIGHT } from './queue';

export type WaitEndOutcome = 'timed-out' | 'not-waiting' | 'waiting';

/**
 * Waits end on time. A pass times out the leases past their maxWaitMinutes,
 * but passes run every schedule minute, so alone they would fail a lease up to
 * a minute after its wait ended. The scheduled pass at `passAtMs` sends each
 * lease whose wait ends before the next one a `time-out` command held back
 * until then: whole seconds from now (the pass itself took some), never early.
 * Returns how many it sent.
 */
export async function sendWaitEnds(
  deps: Pick<AdmissionPassControl, 'commands' | 'now'>,
  queued: readonly QueuedLease[],
  passAtMs: number,
): Promise<number> {
  const ending = waitsEndingBeforeNextPass(
    queued.map((entry) => entry.lease),
    passAtMs,
  );
  // A burst of leases queued together ends its waits in one minute: their commands go out side by side.
  await mapWithConcurrency(ending, LEASES_IN_FLIGHT, (lease) =>
    deps.commands.send(
      { type: 'time-out', tenantId: lease.tenantId, leaseId: lease.leaseId },
      { delaySeconds: Math.max(0, Math.ceil((queueDeadlineMs(lease) - deps.now()) / 1000)) },
    ),
  );
  return ending.length;
}

/**
 * A `time-out` command: the lease FAILS with QUEUE_TIMEOUT if it still waits
 * and its wait has ended. Once, however often the command is delivered and
 * whether or not a pass times it out at the same moment: leaving the queue is
 * conditional, and so is the lease's move to FAILED, which a redelivery
 * completes when the first delivery stopped between the two.
 */
export async function endWait(
  deps: AdmissionPassControl,
  tenantId: string,
  leaseId: string,
): Promise<WaitEndOutcome> {
  const entry = await deps.admission.entry(leaseId);
  if (!entry || entry.lease.tenantId !== tenantId) return 'not-waiting';
  if (entry.status === 'QUEUED') {
    // Early (this clock behind the pass's): the first pass after the wait's end times it out.
    if (deps.now() < queueDeadlineMs(entry.lease)) return 'waiting';
    // False: a pass admitted it, or timed it out, first.
    if (!(await deps.admission.timeOut(leaseId))) return 'not-waiting';
  } else if (entry.status !== 'TIMED_OUT') {
    return 'not-waiting';
  }
  return (await failTimedOut(deps, entry.lease)) ? 'timed-out' : 'not-waiting';
}
