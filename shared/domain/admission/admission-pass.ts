import type { Workload } from '../lease';
import { MinHeap } from '../min-heap';
import { type Capacity, CapacityLedger, type CapacityShortfall, type VcpuCatalog } from './capacity';
import type { Quota } from './quota';
import { type LaunchCandidate, TenantLedger, type TenantUsage } from './tenant-ledger';

/** Why a lease still waits: its tenant's quota, reserved capacity, or the account's EC2 vCPU quota. */
export type QueueReason = 'quota' | CapacityShortfall;

/** A lease waiting for admission, as the queue stores it. */
export interface WaitingLease {
  readonly leaseId: string;
  readonly tenantId: string;
  readonly workload: Workload;
  readonly gpus: number;
  /** Ways to start it, preferred first (the placement's ranking): the first that fits is taken. */
  readonly candidates: readonly LaunchCandidate[];
  /** 0-1000; orders the tenant's own leases, never one tenant against another. */
  readonly priority: number;
  /**
   * When it joined the queue (its provisioning asked for admission), not when
   * the lease was created: its age in the queue, and where `maxWaitMinutes` counts from.
   */
  readonly queuedAtMs: number;
  readonly maxWaitMinutes: number;
  /** The task's declared `maxRuntimeMinutes` (or the lease's duration): it ends by then once started. */
  readonly maxRuntimeMinutes?: number | undefined;
  /** When the lease is released on its own (its expiry), once it runs. */
  readonly expiresAtMs?: number | undefined;
  /**
   * EC2 refused it after admission (no capacity in any allowed pool, or the
   * account's vCPU quota): it sits out passes until `atMs` (the refused pools'
   * back-off), and waits for that reason meanwhile.
   */
  readonly refused?: { readonly atMs: number; readonly reason: CapacityShortfall } | undefined;
}

/**
 * After waiting this long, a lease that does not fit holds what it lacks: later
 * leases in the pass may not take the capacity pool (or, when its own quota is
 * what it lacks, the tenant's quota) it waits for, so releases pile up for it
 * instead of going to smaller leases behind it. Before that, smaller leases
 * backfill past it. A quarter of the default maximum wait: a lease that waits
 * the default hour has three quarters of it left for the held capacity to gather.
 */
export const DEFAULT_HOLD_AFTER_MS = 15 * 60_000;

export interface AdmissionInput {
  readonly nowMs: number;
  /** Leases waiting; a lease listed twice is taken once (its first listing). */
  readonly queue: readonly WaitingLease[];
  readonly usage: Readonly<Record<string, TenantUsage>>;
  readonly quotas: Readonly<Record<string, Quota>>;
  readonly defaultQuota: Quota;
  readonly capacity: Capacity;
  readonly catalog: VcpuCatalog;
  readonly holdAfterMs?: number;
}

export interface AdmittedLease {
  readonly lease: WaitingLease;
  readonly launch: LaunchCandidate;
  /** The commitment zone whose slots a reserved launch takes. */
  readonly zone?: string | undefined;
  /** 0-based place in the pass's order. */
  readonly turn: number;
}

export interface QueuedLease {
  readonly lease: WaitingLease;
  readonly reason: QueueReason;
  /** 1 = the next to be admitted, in the pass's order, among the leases still waiting. */
  readonly position: number;
  /** Whether it holds capacity or quota against later leases (it waited long enough and could fit some day). */
  readonly holding: boolean;
  readonly turn: number;
}

export interface AdmissionResult {
  readonly admitted: readonly AdmittedLease[];
  readonly queued: readonly QueuedLease[];
}

/** The pass's working state: what tenants and the fleet hold as admissions proceed. */
export interface FleetLedger {
  readonly tenants: TenantLedger;
  readonly capacity: CapacityLedger;
}

export function fleetLedgerOf(input: Omit<AdmissionInput, 'nowMs' | 'queue'>): FleetLedger {
  return {
    tenants: new TenantLedger(input.usage, input.quotas, input.defaultQuota),
    capacity: new CapacityLedger(input.capacity, input.catalog),
  };
}

/**
 * One admission pass. The next lease is always the head of the tenant with
 * the lowest weighted share of GPUs in use (recomputed after each admission);
 * a tenant's own leases go by priority (highest first), then age. Ties between
 * tenants go to the older head lease, then the tenant id, so the pass is
 * deterministic. A lease is admitted on its first candidate that both its
 * tenant's quota and the capacity take; otherwise it stays queued with the
 * reason of the first candidate its quota took (else `quota`). Head-of-line
 * blocking: see DEFAULT_HOLD_AFTER_MS.
 */
export function admissionPass(input: AdmissionInput): AdmissionResult {
  return passOver(fleetLedgerOf(input), input.queue, input.nowMs, input.holdAfterMs);
}

interface TenantTurn {
  readonly tenantId: string;
  readonly leases: readonly WaitingLease[];
  next: number;
  share: number;
}

const leaseBefore = (a: WaitingLease, b: WaitingLease) =>
  a.priority !== b.priority
    ? a.priority > b.priority
    : a.queuedAtMs !== b.queuedAtMs
      ? a.queuedAtMs < b.queuedAtMs
      : a.leaseId < b.leaseId;

function turnBefore(a: TenantTurn, b: TenantTurn): boolean {
  if (a.share !== b.share) return a.share < b.share;
  const headA = a.leases[a.next] as WaitingLease;
  const headB = b.leases[b.next] as WaitingLease;
  if (headA.queuedAtMs !== headB.queuedAtMs) return headA.queuedAtMs < headB.queuedAtMs;
  return a.tenantId < b.tenantId;
}

function turnsOf(queue: readonly WaitingLease[], ledger: FleetLedger): MinHeap<TenantTurn> {
  const byTenant = new Map<string, WaitingLease[]>();
  const seen = new Set<string>();
  for (const lease of queue) {
    if (seen.has(lease.leaseId)) continue;
    seen.add(lease.leaseId);
    const list = byTenant.get(lease.tenantId) ?? [];
    list.push(lease);
    byTenant.set(lease.tenantId, list);
  }
  const heap = new MinHeap<TenantTurn>(turnBefore);
  for (const [tenantId, leases] of byTenant) {
    leases.sort((a, b) => (leaseBefore(a, b) ? -1 : 1));
    heap.push({ tenantId, leases, next: 0, share: ledger.tenants.weightedGpus(tenantId) });
  }
  return heap;
}

type Attempt =
  | { readonly fits: true; readonly launch: LaunchCandidate }
  | {
      readonly fits: false;
      readonly reason: QueueReason;
      /** What to hold for it: nothing when no release could ever make it fit. */
      readonly hold?:
        | { readonly kind: 'quota' }
        | { readonly kind: 'capacity'; readonly launch: LaunchCandidate };
    };

function attempt(ledger: FleetLedger, lease: WaitingLease): Attempt {
  let blocked: { reason: CapacityShortfall; on: LaunchCandidate } | undefined;
  let quotaCouldFit = false;
  for (const candidate of lease.candidates) {
    if (!ledger.tenants.fits(lease.tenantId, lease.gpus, candidate)) {
      quotaCouldFit ||= ledger.tenants.couldEverFit(lease.tenantId, lease.gpus, candidate);
      continue;
    }
    const shortfall = ledger.capacity.shortfall(candidate);
    if (shortfall === null) return { fits: true, launch: candidate };
    blocked ??= { reason: shortfall, on: candidate };
  }
  if (blocked) {
    const hold = ledger.capacity.couldEverFit(blocked.on)
      ? { kind: 'capacity' as const, launch: blocked.on }
      : undefined;
    return { fits: false, reason: blocked.reason, hold };
  }
  return { fits: false, reason: 'quota', hold: quotaCouldFit ? { kind: 'quota' } : undefined };
}

/** The pass over a ledger the caller owns (a simulated future runs many passes over one ledger). */
export function passOver(
  ledger: FleetLedger,
  queue: readonly WaitingLease[],
  nowMs: number,
  holdAfterMs = DEFAULT_HOLD_AFTER_MS,
): AdmissionResult {
  const turns = turnsOf(queue, ledger);
  const admitted: AdmittedLease[] = [];
  const queued: QueuedLease[] = [];
  let turn = 0;
  for (let current = turns.pop(); current; current = turns.pop()) {
    const lease = current.leases[current.next] as WaitingLease;
    const result = attempt(ledger, lease);
    if (result.fits) {
      ledger.tenants.take(lease.tenantId, lease.gpus, result.launch);
      const zone = ledger.capacity.take(result.launch);
      admitted.push({ lease, launch: result.launch, zone, turn });
    } else {
      const holding = result.hold !== undefined && nowMs - lease.queuedAtMs >= holdAfterMs;
      if (holding && result.hold?.kind === 'capacity') ledger.capacity.hold(result.hold.launch);
      if (holding && result.hold?.kind === 'quota') ledger.tenants.hold(lease.tenantId);
      queued.push({ lease, reason: result.reason, position: queued.length + 1, holding, turn });
    }
    turn += 1;
    current.next += 1;
    if (current.next < current.leases.length) {
      current.share = ledger.tenants.weightedGpus(current.tenantId);
      turns.push(current);
    }
  }
  ledger.capacity.reopen();
  ledger.tenants.reopen();
  return { admitted, queued };
}
