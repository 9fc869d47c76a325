import { queuePlace } from '../admission/queue-place';
import type { LeaseQueueState } from '../lease';
import type { GroupMember } from './group';

/** A member whose lease waits in the admission queue, as the evaluation saw it. */
export type WaitingMember = LeaseQueueState & { readonly leaseId: string };

/** The members waiting for admission, with their place as the last admission pass left it. */
export function waitingMembers(members: readonly GroupMember[]): WaitingMember[] {
  return members.flatMap((m) =>
    m.status === 'QUEUED' && m.queue ? [{ leaseId: m.leaseId, ...m.queue }] : [],
  );
}

/** The decision's reason, with the members that wait for admission named (reason and place). */
export function withWaiting(reason: string, waiting: readonly WaitingMember[]): string {
  if (waiting.length === 0) return reason;
  const each = waiting.map((w) => `${w.leaseId} (${queuePlace(w)})`).join(', ');
  return `${reason}; ${waiting.length} GPU${waiting.length === 1 ? '' : 's'} waiting in the admission queue: ${each}`;
}

/** Whether the same members wait as before: a member joining or leaving the queue is a change worth recording. */
export function sameWaiting(a: readonly WaitingMember[], b: readonly WaitingMember[]): boolean {
  const before = new Set(b.map((w) => w.leaseId));
  return a.length === b.length && a.every((w) => before.has(w.leaseId));
}
