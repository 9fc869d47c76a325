import type { StorageCharge } from '../domain/storage-billing';

/**
 * A stretch of a stopped machine's volumes that the fleet pays for (a warm
 * pool's machine from the moment it was stopped until it is started for a
 * lease): the operator's overhead, billed to no tenant.
 */
export interface StoppedVolumes {
  /** Unique per stretch, e.g. `<instanceId>#<stoppedAtMs>`: its checkpoint's key. */
  readonly stretchId: string;
  readonly region: string;
  readonly volumeGb: number;
  readonly stoppedAtMs: number;
  /** When the machine was started again (or terminated): the stretch is billed up to here and closed. */
  readonly endedAtMs?: number | undefined;
}

/** One stretch's storage owed at `atMs`, computed from its checkpoint as read. */
export interface FleetStorageEntry {
  readonly stretch: StoppedVolumes;
  readonly charge: StorageCharge;
  readonly atMs: number;
}

/** The fleet's storage checkpoints and its month-to-date overhead. */
export interface FleetStorageLedger {
  /** The checkpoints of these stretches (an empty one for a stretch never charged). */
  checkpoints(stretchIds: readonly string[]): Promise<Map<string, StorageCharge['checkpoint']>>;
  /**
   * Moves each checkpoint and adds to the month's fleet storage, each entry in
   * one conditional step: one whose checkpoint another writer moved first
   * writes nothing (false), so a repeated run never bills twice.
   */
  apply(entries: readonly FleetStorageEntry[]): Promise<boolean[]>;
  /** The fleet's storage overhead charged in a month (`yyyy-mm`). */
  monthTotal(month: string): Promise<number>;
}
