import { costOfSeconds, type MicroUsd } from './money';
import type { Pool } from './placement';
import { assignReservedGpus, type ReservableLease } from './reservations';

/**
 * A reserved commitment: `count` instances of one type in one zone, paid at
 * `hourlyMicroUsd` each from start to end whether used or not. Optionally an
 * EC2 capacity reservation that launches onto it target.
 */
export interface Commitment {
  readonly id: string;
  readonly instanceType: string;
  readonly region: string;
  readonly zone: string;
  readonly count: number;
  readonly gpusPerInstance: number;
  /** Effective hourly rate of one instance. */
  readonly hourlyMicroUsd: MicroUsd;
  readonly startMs: number;
  readonly endMs: number;
  readonly capacityReservationId?: string | undefined;
  /** The leases holding slots now, by lease id. */
  readonly holders: Readonly<Record<string, CommitmentHolder>>;
  /** Idle reserved time is recorded up to here (the start before the first record). */
  readonly idleMeteredUntilMs: number;
}

/** One commitment's idle reserved time in one month, with what it committed. */
export interface MonthIdle {
  readonly commitmentId: string;
  readonly instanceType: string;
  readonly committedGpus: number;
  /** The commitment's effective rate per instance-hour, as the idle time was priced. */
  readonly hourlyMicroUsd: MicroUsd;
  readonly idleGpuSeconds: number;
  readonly idleMicroUsd: MicroUsd;
}

export interface CommitmentHolder {
  readonly gpus: number;
  readonly startedAtMs: number;
  /** Batch that runs off spot only for want of spot capacity. */
  readonly interruptible: boolean;
}

export const committedGpus = (commitment: Commitment) => commitment.count * commitment.gpusPerInstance;

export const usedGpus = (commitment: Commitment) =>
  Object.values(commitment.holders).reduce((sum, holder) => sum + holder.gpus, 0);

export function isActive(commitment: Commitment, nowMs: number): boolean {
  return commitment.startMs <= nowMs && nowMs < commitment.endMs;
}

/**
 * How many of a new lease's GPUs the commitment would carry, as
 * `assignReservedGpus` decides over its current holders plus the newcomer;
 * holders keep their slots (their instances already run there), so the
 * newcomer only gets room that is really free.
 */
export function reservedGpusFor(commitment: Commitment, lease: ReservableLease, nowMs: number): number {
  if (!isActive(commitment, nowMs)) return 0;
  const holders: ReservableLease[] = Object.entries(commitment.holders).map(([leaseId, holder]) => ({
    leaseId,
    gpus: holder.gpus,
    startedAtMs: holder.startedAtMs,
    interruptible: holder.interruptible,
  }));
  const assigned = assignReservedGpus(committedGpus(commitment), [...holders, lease]);
  const free = committedGpus(commitment) - usedGpus(commitment);
  return Math.min(free, assigned.get(lease.leaseId) ?? 0);
}

/** The commitment as a reserved pool for one lease: available when it can carry all of the lease's GPUs. */
export function commitmentPool(commitment: Commitment, lease: ReservableLease, nowMs: number): Pool {
  return {
    region: commitment.region,
    zone: commitment.zone,
    instanceType: commitment.instanceType,
    mode: 'reserved',
    priceMicroUsdPerHour: commitment.hourlyMicroUsd,
    available: reservedGpusFor(commitment, lease, nowMs) >= lease.gpus,
    gpusPerInstance: commitment.gpusPerInstance,
    priceSource: 'commitment',
    commitmentId: commitment.id,
    capacityReservationId: commitment.capacityReservationId,
  };
}

/**
 * Idle reserved GPU-seconds (and what they cost) over [fromMs, toMs) at the
 * current use: committed but unused GPUs are paid for all the same, and the
 * monthly audit weighs them against the commitment.
 */
export function idleReserved(commitment: Commitment, fromMs: number, toMs: number) {
  const from = Math.max(fromMs, commitment.startMs);
  const to = Math.min(toMs, commitment.endMs);
  const seconds = Math.max(0, Math.floor((to - from) / 1000));
  const idleGpus = Math.max(0, committedGpus(commitment) - usedGpus(commitment));
  const idleInstanceSeconds = (idleGpus / commitment.gpusPerInstance) * seconds;
  return {
    idleGpuSeconds: idleGpus * seconds,
    idleMicroUsd: costOfSeconds(idleInstanceSeconds, commitment.hourlyMicroUsd),
    untilMs: from + seconds * 1000,
  };
}
