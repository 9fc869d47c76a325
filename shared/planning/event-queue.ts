import { MinHeap } from '../domain/min-heap';

interface Timed<T> {
  readonly atMs: number;
  readonly rank: number;
  readonly seq: number;
  readonly event: T;
}

/**
 * A min-heap of timed events. Events at the same instant come out by `rank`
 * (lower first), then in the order they were pushed, so a replay is deterministic.
 */
export class EventQueue<T> {
  private readonly heap = new MinHeap<Timed<T>>((x, y) =>
    x.atMs !== y.atMs ? x.atMs < y.atMs : x.rank !== y.rank ? x.rank < y.rank : x.seq < y.seq,
  );
  private pushed = 0;

  push(atMs: number, rank: number, event: T): void {
    this.heap.push({ atMs, rank, seq: this.pushed++, event });
  }

  /** The earliest event and its time, or undefined when the queue is empty. */
  pop(): { atMs: number; event: T } | undefined {
    const top = this.heap.pop();
    return top && { atMs: top.atMs, event: top.event };
  }
}
