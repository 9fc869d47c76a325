import type { WaitingLease } from '../../domain/admission/admission-pass';
import type { DurationSamples } from '../../domain/admission/duration-history';
import type { RunningLease } from '../../domain/admission/wait-estimate';
import type { AdmissionSnapshot, AdmissionStore } from '../../ports/admission-store';

/**
 * How long the gates of one container share what they read of the queue.
 * Each provision message runs a gate over the whole queue; with 2,000 leases
 * waiting, a burst of 500 creates read the queue 500 times (issue #48). Shared
 * for two seconds, a burst reads it about once every two seconds, whatever
 * its size. Nothing is admitted twice or past a quota on a stale read: every
 * admission is committed conditionally on the counters it was decided from, a
 * conflict reads afresh, and a commit, release or wide pass forgets the
 * shared read. What a stale read can change is order within those two
 * seconds: a lease another container queued meanwhile is not yet weighed
 * against this gate's own.
 */
export const GATE_READ_MAX_AGE_MS = 2_000;

interface Cached<Value> {
  readonly atMs: number;
  readonly value: Promise<Value>;
}

/** The reads gates share in one container (one per admission store instance). */
export class GateReads {
  private snapshotRead: Cached<AdmissionSnapshot> | undefined;
  private runningRead: Cached<RunningLease[]> | undefined;
  private durationsRead: Cached<DurationSamples> | undefined;

  constructor(
    private readonly store: Pick<AdmissionStore, 'snapshot' | 'running' | 'durations'>,
    private readonly now: () => number,
  ) {}

  /** The queue as a gate decides on it, with the gate's own lease (just enqueued) in it. */
  async snapshot(own: WaitingLease): Promise<AdmissionSnapshot> {
    const read = this.fresh(this.snapshotRead, () => this.store.snapshot());
    this.snapshotRead = read;
    const snapshot = await read.value;
    if (snapshot.queue.some((lease) => lease.leaseId === own.leaseId)) return snapshot;
    // The gates after this one in the same container weigh it too, as the store now holds it.
    const joined = { ...snapshot, queue: [...snapshot.queue, own] };
    if (this.snapshotRead === read) this.snapshotRead = { atMs: read.atMs, value: Promise.resolve(joined) };
    return joined;
  }

  running(): Promise<RunningLease[]> {
    this.runningRead = this.fresh(this.runningRead, () => this.store.running());
    return this.runningRead.value;
  }

  durations(): Promise<DurationSamples> {
    this.durationsRead = this.fresh(this.durationsRead, () => this.store.durations());
    return this.durationsRead.value;
  }

  /** Something this container did moved the state: the next gate reads afresh. */
  forget(): void {
    this.snapshotRead = undefined;
    this.runningRead = undefined;
    this.durationsRead = undefined;
  }

  private fresh<Value>(cached: Cached<Value> | undefined, read: () => Promise<Value>): Cached<Value> {
    const nowMs = this.now();
    if (cached && nowMs - cached.atMs < GATE_READ_MAX_AGE_MS) return cached;
    const value = read();
    // A failed read is not shared: the next gate reads again.
    value.catch(() => this.forget());
    return { atMs: nowMs, value };
  }
}

const byStore = new WeakMap<object, GateReads>();

/** The gate reads of a container: one per store, as the store is one per container. */
export function gateReadsOf(
  store: Pick<AdmissionStore, 'snapshot' | 'running' | 'durations'>,
  now: () => number,
): GateReads {
  let reads = byStore.get(store);
  if (!reads) {
    reads = new GateReads(store, now);
    byStore.set(store, reads);
  }
  return reads;
}
