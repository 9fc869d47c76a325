import { mapWithConcurrency } from '../concurrency';
import { type CheckpointMeasurement, checkpointMeasurementDue } from '../domain/checkpoint-billing';
import type { LeaseInstance } from '../domain/lease';
import {
  CheckpointMeasureError,
  type CheckpointMeasureFailure,
  type CheckpointStorage,
} from '../ports/checkpoint-storage';
import { BUCKETS } from '../resources';

/** How long the bucket keeps a lease's checkpoints after it (its lifecycle rule), charged once at the end. */
export const CHECKPOINT_RETENTION_MS = BUCKETS.checkpoints.expireAfterDays * 86_400_000;

/** Listings in flight at once: S3 takes thousands a second per prefix, the function's sockets fewer. */
const CONCURRENCY = 16;

export interface CheckpointMeasurements {
  /** By instance id: the carriers measured at this tick. */
  readonly byInstance: ReadonlyMap<string, CheckpointMeasurement>;
  /** Carriers whose listing failed, by why: they keep their last measurement. */
  readonly failed: Readonly<Partial<Record<CheckpointMeasureFailure, number>>>;
}

/**
 * Measures the checkpoints of the carriers whose last measurement is due
 * (CHECKPOINT_MEASURE_EVERY_MS), a warned carrier no longer (its replacement
 * takes over). A failed listing costs the tick nothing: the last measurement
 * stays billed and the next tick tries again.
 */
export async function measureCheckpoints(
  storage: CheckpointStorage | undefined,
  instances: readonly LeaseInstance[],
  atMs: number,
): Promise<CheckpointMeasurements> {
  const due = storage
    ? instances.filter((i) => i.interruptedAtMs === undefined && checkpointMeasurementDue(i, atMs))
    : [];
  const byInstance = new Map<string, CheckpointMeasurement>();
  const failed: Partial<Record<CheckpointMeasureFailure, number>> = {};
  await mapWithConcurrency(due, CONCURRENCY, async (instance) => {
    try {
      const bytes = await (storage as CheckpointStorage).bytesOf(instance.tenantId, instance.leaseId);
      byInstance.set(instance.instanceId, { bytes, atMs });
    } catch (error) {
      if (!(error instanceof CheckpointMeasureError)) throw error;
      failed[error.failure] = (failed[error.failure] ?? 0) + 1;
    }
  });
  return { byInstance, failed };
}
