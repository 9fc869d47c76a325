/**
 * A min-heap of timed events. Events at the same instant come out by `rank`
 * (lower first), then in the order they were pushed, so a replay is deterministic.
 */
export class EventQueue<T> {
  private readonly heap: { atMs: number; rank: number; seq: number; event: T }[] = [];
  private pushed = 0;

  push(atMs: number, rank: number, event: T): void {
    this.heap.push({ atMs, rank, seq: this.pushed++, event });
    let i = this.heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  /** The earliest event and its time, or undefined when the queue is empty. */
  pop(): { atMs: number; event: T } | undefined {
    const top = this.heap[0];
    const last = this.heap.pop();
    if (top === undefined || last === undefined) return undefined;
    if (this.heap.length > 0) {
      this.heap[0] = last;
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let smallest = i;
        if (left < this.heap.length && this.before(left, smallest)) smallest = left;
        if (right < this.heap.length && this.before(right, smallest)) smallest = right;
        if (smallest === i) break;
        this.swap(i, smallest);
        i = smallest;
      }
    }
    return { atMs: top.atMs, event: top.event };
  }

  private before(a: number, b: number): boolean {
    const x = this.heap[a];
    const y = this.heap[b];
    if (x === undefined || y === undefined) return false;
    if (x.atMs !== y.atMs) return x.atMs < y.atMs;
    if (x.rank !== y.rank) return x.rank < y.rank;
    return x.seq < y.seq;
  }

  private swap(a: number, b: number): void {
    const x = this.heap[a];
    const y = this.heap[b];
    if (x === undefined || y === undefined) return;
    this.heap[a] = y;
    this.heap[b] = x;
  }
}
