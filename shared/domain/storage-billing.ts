import type { LeaseInstance } from './lease';
import { costOfGbSeconds, type MicroUsd } from './money';
import type { BillingDimension } from './spend';

/** Volumes stored from `launchedAtMs` at a GB-month price fixed then. */
export interface StorageRun {
  readonly launchedAtMs: number;
  readonly volumeGb: number;
  readonly storageMicroUsdPerGbMonth: MicroUsd;
}

/** What has been charged for a run's storage so far. */
export interface StorageCheckpoint {
  readonly storageBilledSeconds: number;
  readonly storageBilledMicroUsd: MicroUsd;
}

export interface StorageCharge {
  readonly seconds: number;
  readonly microUsd: MicroUsd;
  readonly checkpoint: StorageCheckpoint;
}

export const EMPTY_STORAGE_CHECKPOINT: StorageCheckpoint = {
  storageBilledSeconds: 0,
  storageBilledMicroUsd: 0,
};

/**
 * Seconds of storage at `atMs`: whole elapsed seconds while stored, rounded up
 * at the end, with no minimum (the one-minute minimum is compute's alone).
 */
export function storageSeconds(run: Pick<StorageRun, 'launchedAtMs'>, atMs: number, ended: boolean): number {
  const elapsedMs = Math.max(0, atMs - run.launchedAtMs);
  return ended ? Math.ceil(elapsedMs / 1000) : Math.floor(elapsedMs / 1000);
}

/**
 * The storage owed at `atMs` on top of the checkpoint: the cumulative cost
 * differenced, as compute is, so any sequence of ticks adds up to the cost of
 * the whole stretch; a tick before the checkpoint owes nothing.
 */
export function storageChargeUpTo(
  run: StorageRun,
  checkpoint: StorageCheckpoint,
  atMs: number,
  ended: boolean,
): StorageCharge {
  const seconds = Math.max(checkpoint.storageBilledSeconds, storageSeconds(run, atMs, ended));
  const microUsd = costOfGbSeconds(run.volumeGb, seconds, run.storageMicroUsdPerGbMonth);
  return {
    seconds: seconds - checkpoint.storageBilledSeconds,
    microUsd: microUsd - checkpoint.storageBilledMicroUsd,
    checkpoint: { storageBilledSeconds: seconds, storageBilledMicroUsd: microUsd },
  };
}

/** Cost of a closed stretch of storage, for checking and simulation. */
export function costOfStorage(run: StorageRun, endedAtMs: number): MicroUsd {
  return storageChargeUpTo(run, EMPTY_STORAGE_CHECKPOINT, endedAtMs, true).microUsd;
}

/**
 * What an instance owes besides compute at `atMs`: its volumes since the
 * storage checkpoint (records from before storage was billed owe none) and,
 * on its first charge only (nothing billed yet), the transfer of the lease's
 * data. Both ride on the compute charge, whose checkpoint condition makes
 * each land once.
 */
export function instanceExtrasAt(
  instance: LeaseInstance,
  atMs: number,
  ended: boolean,
): { storage?: StorageCharge; transferMicroUsd?: MicroUsd } {
  const { volumeGb, storageMicroUsdPerGbMonth, transferMicroUsd } = instance;
  const storage =
    volumeGb === undefined || storageMicroUsdPerGbMonth === undefined
      ? undefined
      : storageChargeUpTo(
          { launchedAtMs: instance.launchedAtMs, volumeGb, storageMicroUsdPerGbMonth },
          {
            storageBilledSeconds: instance.storageBilledSeconds ?? 0,
            storageBilledMicroUsd: instance.storageBilledMicroUsd ?? 0,
          },
          atMs,
          ended,
        );
  return {
    ...(storage ? { storage } : {}),
    ...(transferMicroUsd && instance.billedSeconds === 0 ? { transferMicroUsd } : {}),
  };
}

/** An instance's bill so far by dimension: compute, its volumes, and the transfer once charged. */
export const billedByDimension = (instance: LeaseInstance): Record<BillingDimension, MicroUsd> => ({
  compute: instance.billedMicroUsd,
  storage: instance.storageBilledMicroUsd ?? 0,
  transfer: instance.billedSeconds > 0 ? (instance.transferMicroUsd ?? 0) : 0,
});

/** Everything an instance's bill holds so far, every dimension. */
export const billedTotalMicroUsd = (instance: LeaseInstance): MicroUsd => {
  const { compute, storage, transfer } = billedByDimension(instance);
  return compute + storage + transfer;
};
