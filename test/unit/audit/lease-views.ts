import type { LeaseView, RentalMode, Workload } from '../../../shared/domain/lease';

export const NOV_2026 = Date.UTC(2026, 10, 1);
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

/** A lease of tenant `acme` whose `gpus` instances ran in `mode` from `fromMs` to `toMs` (undefined: still running). */
export function ranLease(
  id: string,
  workload: Workload,
  gpus: number,
  mode: RentalMode,
  fromMs: number,
  toMs: number | undefined,
): LeaseView {
  return {
    tenantId: 'acme',
    leaseId: id,
    workload,
    gpus,
    instanceType: 'g5.xlarge',
    status: toMs === undefined ? 'RUNNING' : 'RELEASED',
    createdAtMs: fromMs,
    updatedAtMs: toMs ?? fromMs,
    instances: Array.from({ length: gpus }, (_, index) => ({
      tenantId: 'acme',
      leaseId: id,
      instanceId: `i-${id}-${index}`,
      instanceType: 'g5.xlarge',
      mode,
      zone: 'us-east-1a',
      priceMicroUsdPerHour: 1_006_000,
      launchedAtMs: fromMs,
      endedAtMs: toMs,
      billedSeconds: 0,
      billedMicroUsd: 0,
      meteredUntilMs: fromMs,
      meteringOpen: toMs === undefined,
    })),
  };
}
