import { priceCatalog } from '../../../../shared/catalog';
import type { WaitingLease } from '../../../../shared/domain/admission/admission-pass';
import type { Capacity } from '../../../../shared/domain/admission/capacity';
import type { Quota } from '../../../../shared/domain/admission/quota';
import type { LaunchCandidate } from '../../../../shared/domain/admission/tenant-ledger';
import type { Commitment } from '../../../../shared/domain/commitments';
import type { RentalMode } from '../../../../shared/domain/lease';

export const NOW = Date.parse('2026-12-01T10:00:00.000Z');
export const MINUTE = 60_000;

/** p3.2xlarge: 1 V100, 8 vCPUs, $3.06/h in us-east-1. */
export const P3 = 'p3.2xlarge';

export const quota = (overrides: Partial<Quota> = {}): Quota => ({
  maxGpus: 100,
  maxHourlyMicroUsd: 1_000_000_000,
  maxGpusByMode: {},
  weight: 1,
  ...overrides,
});

/** `instances` of a 1-GPU type, priced from the catalog. */
export function candidate(
  instances: number,
  mode: RentalMode = 'on-demand',
  instanceType = P3,
  region = 'us-east-1',
): LaunchCandidate {
  return {
    region,
    instanceType,
    instances,
    mode,
    hourlyMicroUsd: instances * priceCatalog.onDemandMicroPerHour(instanceType, region),
  };
}

let serial = 0;

export function waiting(tenantId: string, gpus: number, overrides: Partial<WaitingLease> = {}): WaitingLease {
  serial += 1;
  return {
    leaseId: `lease-${String(serial).padStart(4, '0')}`,
    tenantId,
    workload: 'training',
    gpus,
    candidates: [candidate(gpus)],
    priority: 500,
    queuedAtMs: NOW - MINUTE,
    maxWaitMinutes: 60,
    ...overrides,
  };
}

/** A P on-demand quota in us-east-1 of `gpus` p3.2xlarge instances' worth of vCPUs. */
export const pQuota = (gpus: number, usedGpus = 0): Capacity => ({
  vcpuQuotas: [
    { region: 'us-east-1', family: 'P', market: 'on-demand', limitVcpus: gpus * 8, usedVcpus: usedGpus * 8 },
  ],
  reservedSlots: [],
});

/** Three p3.8xlarge (4 GPUs each) committed in us-east-1a, active around NOW, no holders. */
export const commitment = (overrides: Partial<Commitment> = {}): Commitment => ({
  id: 'c1',
  instanceType: 'p3.8xlarge',
  region: 'us-east-1',
  zone: 'us-east-1a',
  count: 3,
  gpusPerInstance: 4,
  hourlyMicroUsd: 7_700_000,
  startMs: NOW - 86_400_000,
  endMs: NOW + 86_400_000,
  holders: {},
  idleMeteredUntilMs: NOW,
  ...overrides,
});
