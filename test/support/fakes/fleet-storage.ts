import { monthOfCharge } from '../../../shared/domain/spend';
import type { StorageCheckpoint } from '../../../shared/domain/storage-billing';
import type { FleetStorageEntry, FleetStorageLedger } from '../../../shared/ports/fleet-storage';

/** The fleet storage ledger's contract: a checkpoint moves only from the one its charge was computed from. */
export class FakeFleetStorageLedger implements FleetStorageLedger {
  private readonly stored = new Map<string, StorageCheckpoint>();
  private readonly months = new Map<string, number>();

  async checkpoints(stretchIds: readonly string[]): Promise<Map<string, StorageCheckpoint>> {
    return new Map(stretchIds.flatMap((id) => this.existing(id)));
  }

  async apply(entries: readonly FleetStorageEntry[]): Promise<boolean[]> {
    return entries.map(({ stretch, charge, atMs }) => {
      const previous = this.stored.get(stretch.stretchId)?.storageBilledSeconds ?? 0;
      if (previous !== charge.checkpoint.storageBilledSeconds - charge.seconds) return false;
      this.stored.set(stretch.stretchId, charge.checkpoint);
      const month = monthOfCharge(atMs);
      this.months.set(month, (this.months.get(month) ?? 0) + charge.microUsd);
      return true;
    });
  }

  async monthTotal(month: string): Promise<number> {
    return this.months.get(month) ?? 0;
  }

  private existing(id: string): [string, StorageCheckpoint][] {
    const checkpoint = this.stored.get(id);
    return checkpoint ? [[id, checkpoint]] : [];
  }
}
