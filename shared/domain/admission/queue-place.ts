import type { LeaseQueueState } from '../lease';

/** A waiting lease's place in words, as decisions that depend on it say it: `quota, position 2`. */
export const queuePlace = (queue: Pick<LeaseQueueState, 'reason' | 'position'>) =>
  `${queue.reason}, position ${queue.position}`;
