import type { ChargeEntry } from '../domain/charge-batches';
import type { RentalMode } from '../domain/lease';

export interface UsageRecord {
  readonly tenantId: string;
  readonly leaseId: string;
  readonly instanceId: string;
  readonly instanceType: string;
  readonly mode: RentalMode;
  readonly project?: string | undefined;
  /** The instant the charge runs up to. */
  readonly atMs: number;
  readonly seconds: number;
  readonly microUsd: number;
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
