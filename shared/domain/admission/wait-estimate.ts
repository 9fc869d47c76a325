import type { Workload } from '../lease';
import { MinHeap } from '../min-heap';
import { type AdmissionInput, fleetLedgerOf, passOver, type WaitingLease } from './admission-pass';
import { type DurationBasis, type DurationSamples, remainingDuration } from './duration-history';
import { splitTimedOut } from './queue-timeout';
import type { LaunchCandidate } from './tenant-ledger';

const MINUTE_MS = 60_000;

/** A lease running now, with what it holds and what is known of its end. */
export interface RunningLease {
  readonly leaseId: string;
  readonly tenantId: string;
  readonly workload: Workload;
  readonly gpus: number;
  readonly launch: LaunchCandidate;
  /** The commitment zone of a reserved launch. */
  readonly zone?: string | undefined;
  readonly startedAtMs: number;
  /** When it is released on its own (its lease expiry). */
  readonly expiresAtMs?: number | undefined;
  /** The task's declared maximum runtime. */
  readonly maxRuntimeMinutes?: number | undefined;
}

/** What an end estimate rests on: a known end (expiry, declared runtime) or a history of durations. */
export type EndBasis = 'lease-expiry' | 'declared-runtime' | DurationBasis;

/**
 * What a start estimate rests on: already fits, or the basis of the release
 * estimate that lets the lease in. Without an estimate: the lease would reach
 * its `maxWaitMinutes` first, or no release known now frees enough for it.
 * `after-refusal`: EC2 refused it lately; it is tried again when the refused
 * pools' back-off ends.
 */
export type EstimateBasis = 'fits-now' | EndBasis | 'times-out' | 'no-known-release' | 'after-refusal';

export interface WaitEstimate {
  readonly leaseId: string;
  readonly estimatedStartAtMs: number | null;
  readonly estimateBasis: EstimateBasis;
}

export interface EstimateInput extends AdmissionInput {
  /** The running leases whose releases the estimate foresees; usage and capacity already count them. */
  readonly running: readonly RunningLease[];
  readonly history: DurationSamples;
  /** Leases to estimate; all of the queue when absent (the simulation stops once these are settled). */
  readonly leaseIds?: ReadonlySet<string> | undefined;
}

type EndKnown = Pick<
  RunningLease,
  'tenantId' | 'workload' | 'startedAtMs' | 'expiresAtMs' | 'maxRuntimeMinutes'
>;

/**
 * When a running lease is expected to end, seen at `nowMs`: the remaining
 * duration its history gives (see remainingDuration), but never after a
 * known end (its expiry, or its start plus the declared runtime), and never
 * before now.
 */
export function estimatedEnd(
  lease: EndKnown,
  history: DurationSamples,
  nowMs: number,
): { readonly atMs: number; readonly basis: EndBasis } {
  const remaining = remainingDuration(history, lease.tenantId, lease.workload, nowMs - lease.startedAtMs);
  let end: { atMs: number; basis: EndBasis } = { atMs: nowMs + remaining.ms, basis: remaining.basis };
  if (lease.maxRuntimeMinutes !== undefined) {
    const declared = lease.startedAtMs + lease.maxRuntimeMinutes * MINUTE_MS;
    if (declared < end.atMs) end = { atMs: declared, basis: 'declared-runtime' };
  }
  if (lease.expiresAtMs !== undefined && lease.expiresAtMs < end.atMs) {
    end = { atMs: lease.expiresAtMs, basis: 'lease-expiry' };
  }
  return { atMs: Math.max(nowMs, end.atMs), basis: end.basis };
}

interface Release {
  readonly atMs: number;
  readonly basis: EndBasis;
  readonly lease: Pick<RunningLease, 'tenantId' | 'gpus' | 'launch' | 'zone'>;
  readonly seq: number;
}

/**
 * When each waiting lease would start if nothing new arrived: the releases
 * of the running leases are replayed in time order (each at its estimated
 * end), the real admission pass runs after each, and leases it admits start
 * then and are released in turn at their own estimated end (a fresh lease of
 * their tenant and workload, capped by their declared runtime). Leases that
 * reach their `maxWaitMinutes` first leave the queue as they would.
 */
export function estimateWaits(input: EstimateInput): WaitEstimate[] {
  const ledger = fleetLedgerOf(input);
  const queued = [...new Set(input.queue.map((lease) => lease.leaseId))];
  const targets = new Set(input.leaseIds ? queued.filter((id) => input.leaseIds?.has(id)) : queued);
  const results = new Map<string, WaitEstimate>();
  const settle = (leaseId: string, estimatedStartAtMs: number | null, estimateBasis: EstimateBasis) => {
    if (targets.has(leaseId) && !results.has(leaseId)) {
      results.set(leaseId, { leaseId, estimatedStartAtMs, estimateBasis });
    }
  };
  const releases = new MinHeap<Release>((a, b) => (a.atMs !== b.atMs ? a.atMs < b.atMs : a.seq < b.seq));
  let seq = 0;
  const foresee = (lease: Release['lease'], end: { atMs: number; basis: EndBasis }) => {
    releases.push({ atMs: end.atMs, basis: end.basis, lease, seq: seq++ });
  };
  for (const lease of input.running) foresee(lease, estimatedEnd(lease, input.history, input.nowMs));

  let pending: readonly WaitingLease[] = input.queue;
  let atMs = input.nowMs;
  let basis: EstimateBasis = 'fits-now';
  for (;;) {
    const { waiting, timedOut } = splitTimedOut(pending, atMs);
    for (const lease of timedOut) settle(lease.leaseId, null, 'times-out');
    const pass = passOver(ledger, waiting, atMs, input.holdAfterMs);
    for (const { lease, launch, zone } of pass.admitted) {
      settle(lease.leaseId, atMs, basis);
      const started = { ...lease, startedAtMs: atMs, expiresAtMs: undefined };
      foresee(
        { tenantId: lease.tenantId, gpus: lease.gpus, launch, zone },
        estimatedEnd(started, input.history, atMs),
      );
    }
    pending = pass.queued.map((queued) => queued.lease);
    const next = releases.peek();
    if (results.size === targets.size || pending.length === 0 || !next) break;
    atMs = next.atMs;
    for (let release = releases.peek(); release && release.atMs === atMs; release = releases.peek()) {
      releases.pop();
      ledger.tenants.release(release.lease.tenantId, release.lease.gpus, release.lease.launch);
      ledger.capacity.release(release.lease.launch, release.lease.zone);
      basis = release.basis;
    }
  }
  for (const lease of pending) settle(lease.leaseId, null, 'no-known-release');
  return queued.flatMap((leaseId) => results.get(leaseId) ?? []);
}
