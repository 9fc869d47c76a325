import type { PriceCatalog } from '../domain/catalog';
import { EMPTY_STORAGE_CHECKPOINT, storageChargeUpTo } from '../domain/storage-billing';
import type { WarmMachine } from '../domain/warm-pools/machine';
import { ROOT_VOLUME_GIB } from '../ports/compute';
import type { FleetStorageEntry, FleetStorageLedger, StoppedVolumes } from '../ports/fleet-storage';

export interface FleetStorageDeps {
  readonly fleetStorage: FleetStorageLedger;
  readonly catalog: PriceCatalog;
}

/**
 * Meters stopped machines' volumes to the fleet up to `atMs` (the caller's
 * tick instant, so a repeated run lands on the same instant): each stretch at
 * its region's gp3 price, cumulative and differenced like a lease's storage,
 * up to its end once it has one. The hook warm pools call for the machines
 * they keep stopped; returns the micro-dollars charged.
 */
export async function meterStoppedVolumes(
  deps: FleetStorageDeps,
  stretches: readonly StoppedVolumes[],
  atMs: number,
): Promise<number> {
  const prices = deps.catalog.storage;
  if (!prices || stretches.length === 0) return 0;
  const checkpoints = await deps.fleetStorage.checkpoints(stretches.map((s) => s.stretchId));
  const entries: FleetStorageEntry[] = stretches.flatMap((stretch) => {
    const endAt = stretch.endedAtMs === undefined ? atMs : Math.min(atMs, stretch.endedAtMs);
    const charge = storageChargeUpTo(
      {
        launchedAtMs: stretch.stoppedAtMs,
        volumeGb: stretch.volumeGb,
        storageMicroUsdPerGbMonth: prices.ebsMicroPerGbMonth(stretch.region),
      },
      checkpoints.get(stretch.stretchId) ?? EMPTY_STORAGE_CHECKPOINT,
      endAt,
      endAt === stretch.endedAtMs,
    );
    return charge.seconds > 0 ? [{ stretch, charge, atMs: endAt }] : [];
  });
  const applied = await deps.fleetStorage.apply(entries);
  return entries.reduce((sum, entry, i) => sum + (applied[i] ? entry.charge.microUsd : 0), 0);
}

/**
 * The stopped stretches of warm machines: from when the filler saw the machine
 * stopped (`readyAtMs`) until a lease claimed it, when the lease's own metering
 * takes over from its start. A machine still launching or stopping has no
 * stretch yet (it runs: the operator pays its instance time, not metered here).
 */
export function warmMachineStretches(machines: readonly WarmMachine[]): StoppedVolumes[] {
  return machines.flatMap((machine) =>
    machine.readyAtMs === undefined || (machine.state !== 'ready' && machine.state !== 'claimed')
      ? []
      : [
          {
            stretchId: `${machine.instanceId}#${machine.readyAtMs}`,
            region: machine.region,
            volumeGb: ROOT_VOLUME_GIB,
            stoppedAtMs: machine.readyAtMs,
            ...(machine.state === 'claimed' ? { endedAtMs: machine.claimedAtMs ?? machine.readyAtMs } : {}),
          },
        ],
  );
}
