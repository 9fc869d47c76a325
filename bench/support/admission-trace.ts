/**
 * The one bench file that reads the planner's trace code (repoint it when the
 * planner moves): the Alibaba trace as admission replay leases.
 */
import { join } from 'node:path';
import { ALIBABA_TRACE } from '../../planner/paths';
import { readTrace } from '../../planner/trace/read-trace';
import { DEFAULT_DATA_DIR } from '../../shared/adapters/reference-data';
import type { ReplayLease } from '../../shared/planning/admission/replay';
import { unitHash, zipfTenantOf } from '../../shared/planning/admission/tenant-split';

const QUARTER_HOUR_MINUTES = 15;
/** The share of leases that declare a maximum runtime up front. */
export const DECLARED_RUNTIME_SHARE = 0.25;

export interface AdmissionTrace {
  readonly leases: readonly ReplayLease[];
  /** Median, over lease arrivals, of the GPUs in use at that instant in the trace as it ran (uncapped). */
  readonly medianConcurrentGpus: number;
  readonly notes: readonly string[];
}

/**
 * Pods arrive at their scheduled_time and run until deletion_time, split
 * across tenants by `zipfTenantOf`; a DECLARED_RUNTIME_SHARE of them (drawn by
 * id) declare a maxRuntimeMinutes of their true duration rounded up to the
 * next quarter hour, as a user who knows roughly how long a job takes would.
 */
export async function readAdmissionTrace(tenantIds: readonly string[]): Promise<AdmissionTrace> {
  const trace = await readTrace(join(DEFAULT_DATA_DIR, ALIBABA_TRACE));
  const leases = trace.leases.map((lease): ReplayLease => {
    const durationMs = lease.endMs - lease.startMs;
    const declares = unitHash(`${lease.id}#runtime`) < DECLARED_RUNTIME_SHARE;
    const minutes = Math.max(1, Math.ceil(durationMs / 60_000 / QUARTER_HOUR_MINUTES)) * QUARTER_HOUR_MINUTES;
    return {
      id: lease.id,
      tenantId: zipfTenantOf(lease.id, tenantIds),
      workload: lease.workload,
      gpus: lease.gpus,
      arrivalMs: lease.startMs,
      durationMs,
      maxRuntimeMinutes: declares ? minutes : undefined,
    };
  });
  return { leases, medianConcurrentGpus: medianConcurrencyAtArrivals(leases), notes: trace.notes };
}

function medianConcurrencyAtArrivals(leases: readonly ReplayLease[]): number {
  const changes = leases.flatMap((lease) => [
    { atMs: lease.arrivalMs, gpus: lease.gpus },
    { atMs: lease.arrivalMs + lease.durationMs, gpus: -lease.gpus },
  ]);
  // Ends before starts at the same instant: a GPU freed at t is not in use at t.
  changes.sort((a, b) => a.atMs - b.atMs || a.gpus - b.gpus);
  const seen: number[] = [];
  let inUse = 0;
  for (const change of changes) {
    inUse += change.gpus;
    if (change.gpus > 0) seen.push(inUse);
  }
  seen.sort((a, b) => a - b);
  return seen[Math.floor((seen.length - 1) / 2)] as number;
}
