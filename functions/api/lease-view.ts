import type { LeaseInstance, LeaseView } from '../../shared/domain/lease';
import { microToUsd } from '../../shared/domain/money';

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

function instanceBody(instance: LeaseInstance) {
  return {
    instanceId: instance.instanceId,
    instanceType: instance.instanceType,
    mode: instance.mode,
    region: instance.region,
    zone: instance.zone,
    pricePerHourUsd: microToUsd(instance.priceMicroUsdPerHour),
    launchedAt: iso(instance.launchedAtMs),
    endedAt: iso(instance.endedAtMs),
    billedSeconds: instance.billedSeconds,
    costMicroUsd: instance.billedMicroUsd,
    costUsd: microToUsd(instance.billedMicroUsd),
  };
}

/** The API's shape of a lease: metered cost so far, exact in micro-dollars and as USD. */
export function leaseBody(lease: LeaseView) {
  const costMicroUsd = lease.instances.reduce((sum, instance) => sum + instance.billedMicroUsd, 0);
  const modes = [...new Set(lease.instances.map((instance) => instance.mode))];
  return {
    leaseId: lease.leaseId,
    status: lease.status,
    workload: lease.workload,
    gpus: lease.gpus,
    instanceType: lease.instanceType,
    requestedMode: lease.requestedMode,
    project: lease.project,
    mode: modes.length === 1 ? modes[0] : modes.length === 0 ? undefined : 'mixed',
    createdAt: iso(lease.createdAtMs),
    updatedAt: iso(lease.updatedAtMs),
    releaseRequestedAt: iso(lease.releaseRequestedAtMs),
    endedAt: iso(lease.terminatedAtMs),
    failureReason: lease.failureReason,
    expiresAt: iso(lease.expiresAtMs),
    gpuModel: lease.gpuModel,
    regions: lease.regions,
    dataRegion: lease.dataRegion,
    dataGb: lease.dataGb,
    maxHourlyPrice: lease.maxHourlyMicroUsd === undefined ? undefined : microToUsd(lease.maxHourlyMicroUsd),
    placement: lease.placement && {
      region: lease.placement.region,
      zone: lease.placement.zone,
      instanceType: lease.placement.instanceType,
      instances: lease.placement.instances,
      mode: lease.placement.mode,
      hourlyUsd: microToUsd(lease.placement.hourlyMicroUsd),
      reason: lease.placement.reason,
    },
    costMicroUsd,
    costUsd: microToUsd(costMicroUsd),
    instances: lease.instances.map(instanceBody),
  };
}
