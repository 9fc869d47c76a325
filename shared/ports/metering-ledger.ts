import type { Charge } from '../domain/billing';
import type { ChargeEntry } from '../domain/charge-batches';
import type { LeaseInstance, RentalMode } from '../domain/lease';

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
   * Applies `charge` (computed from `instance`'s checkpoint) as of `atMs`.
   * If another writer moved the checkpoint first, nothing is written and the
   * result is `already-recorded`: a repeated tick never bills twice.
   */
  applyCharge(
    instance: LeaseInstance,
    charge: Charge,
    atMs: number,
    close: { endedAtMs: number } | null,
  ): Promise<ChargeOutcome>;
  /**
   * Applies many charges in as few transactions as the 100-action limit allows;
   * one outcome per entry, in order. A charge whose checkpoint moved is
   * `already-recorded`; the others in its batch still land.
   */
  applyCharges(entries: readonly ChargeEntry[]): Promise<ChargeOutcome[]>;
}
