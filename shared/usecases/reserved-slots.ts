import {
  type Commitment,
  commitmentPool,
  idleReserved,
  isActive,
  reservedGpusFor,
} from '../domain/commitments';
import type { Lease } from '../domain/lease';
import type { Pool } from '../domain/placement';
import type { ReservableLease } from '../domain/reservations';
import { monthBounds, monthOf } from '../domain/spend';
import type { ClaimOutcome } from '../ports/commitments';
import type { ControlPlane } from './dependencies';

type Deps = Pick<ControlPlane, 'commitments'>;

/** The lease as the reservation policy sees it. */
export function reservableLease(lease: Lease, gpus: number, nowMs: number): ReservableLease {
  return {
    leaseId: lease.leaseId,
    gpus,
    startedAtMs: nowMs,
    interruptible: lease.workload === 'batch',
  };
}

export interface ReservedOptions {
  /** What chooseRentalMode is told: the most GPUs one commitment would carry for this lease. */
  readonly freeReservedGpus: number;
  /** One reserved pool per active commitment the lease could run on. */
  readonly pools: readonly Pool[];
}

/** The commitments a lease could use now: active, of one of its instance types, in an allowed region. */
export async function usableCommitments(
  deps: Deps,
  instanceTypes: readonly string[],
  regions: readonly string[],
  nowMs: number,
): Promise<Commitment[]> {
  return (await deps.commitments.list()).filter(
    (c) => isActive(c, nowMs) && instanceTypes.includes(c.instanceType) && regions.includes(c.region),
  );
}

/** The commitments a lease could use now, with what `assignReservedGpus` would give it on each. */
export async function reservedOptions(
  deps: Deps,
  lease: ReservableLease,
  instanceTypes: readonly string[],
  regions: readonly string[],
  nowMs: number,
): Promise<ReservedOptions> {
  const usable = await usableCommitments(deps, instanceTypes, regions, nowMs);
  const carried = usable.map((c) => reservedGpusFor(c, lease, nowMs));
  return {
    freeReservedGpus: Math.max(0, ...carried),
    pools: usable.map((c) => commitmentPool(c, lease, nowMs)),
  };
}

/** Takes the lease's slots on the commitment before launching onto it. */
export function claimSlots(deps: Deps, commitmentId: string, lease: ReservableLease): Promise<ClaimOutcome> {
  return deps.commitments.claim(commitmentId, lease.leaseId, {
    gpus: lease.gpus,
    startedAtMs: lease.startedAtMs,
    interruptible: lease.interruptible,
  });
}

/** Frees every slot the lease holds (released, failed, or fell back after claiming). */
export async function freeReservedSlots(deps: Deps, leaseId: string): Promise<void> {
  const held = (await deps.commitments.list()).filter((c) => c.holders[leaseId] !== undefined);
  await Promise.all(held.map((c) => deps.commitments.release(c.id, leaseId)));
}

export interface IdleSummary {
  readonly commitments: number;
  readonly idleGpuSeconds: number;
  readonly idleMicroUsd: number;
}

/**
 * Records the idle reserved GPU time of every commitment up to `atMs` (the
 * metering tick's scheduled time): paid for all the same, and what the monthly
 * audit weighs a commitment by. A window that crosses a month (UTC) is recorded
 * in one piece per month, so each month's idle total is exact. A repeated tick
 * records nothing twice.
 */
export async function recordIdleReserved(deps: Deps, atMs: number): Promise<IdleSummary> {
  let idleGpuSeconds = 0;
  let idleMicroUsd = 0;
  const commitments: Commitment[] = await deps.commitments.list();
  for (const commitment of commitments) {
    const untilMs = Math.min(atMs, commitment.endMs);
    let current = commitment;
    while (current.idleMeteredUntilMs < untilMs) {
      const pieceEndMs = Math.min(untilMs, monthBounds(monthOf(current.idleMeteredUntilMs)).endMs);
      const idle = idleReserved(current, current.idleMeteredUntilMs, pieceEndMs);
      if (idle.untilMs <= current.idleMeteredUntilMs) break;
      if (!(await deps.commitments.recordIdle(current, idle.untilMs, idle))) break;
      idleGpuSeconds += idle.idleGpuSeconds;
      idleMicroUsd += idle.idleMicroUsd;
      current = { ...current, idleMeteredUntilMs: idle.untilMs };
    }
  }
  return { commitments: commitments.length, idleGpuSeconds, idleMicroUsd };
}
