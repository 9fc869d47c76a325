import type { ChargeEntry } from '../domain/charge-batches';
import type { RentalMode } from '../domain/lease';
import type { BillingDimension } from '../domain/spend';

/** One charge, as a usage record holds it. */
export interface UsageCharge {
  readonly leaseId: string;
  readonly instanceId: string;
  readonly instanceType: string;
  readonly mode: RentalMode;
  readonly project?: string | undefined;
  /** What it pays for; records from before storage and transfer were billed hold compute only, and no dimension. */
  readonly dimension?: BillingDimension | undefined;
  /** The instant the charge runs up to. */
  readonly atMs: number;
  /** Seconds of the instance (compute) or of its volumes (storage); none for a transfer. */
  readonly seconds: number;
  readonly microUsd: number;
}

/**
 * The raw usage of one metering transaction: every charge it made, for one
 * tenant. One record per transaction rather than one per charge keeps the items
 * a tick writes per instance to its checkpoint (and the rollups it shares).
 */
export interface UsageRecord {
  readonly tenantId: string;
  /** The instant of its first charge (its key). */
  readonly atMs: number;
  readonly charges: readonly UsageCharge[];
}

export type ChargeOutcome = 'recorded' | 'already-recorded';

/**
 * Writes charges, advances the instance checkpoint and adds to the month-to-date
 * spend counters in one atomic step.
 */
export interface MeteringLedger {
  /**
   * Applies charges (each computed from its instance's checkpoint as read) in as
   * few transactions as the 100-action limit allows; one outcome per entry, in
   * order. A charge whose checkpoint another writer moved first writes nothing
   * and is `already-recorded`, so a repeated tick never bills twice; the others
   * in its batch still land.
   */
  applyCharges(entries: readonly ChargeEntry[]): Promise<ChargeOutcome[]>;
}
