import type { LeaseInstance, LeaseQueueState, LeaseView } from '../../shared/domain/lease';
import { type MicroUsd, microToUsd } from '../../shared/domain/money';
import { priceInForce } from '../../shared/domain/price-changes';
import { BILLING_DIMENSIONS, type BillingDimension } from '../../shared/domain/spend';
import { billedByDimension, billedTotalMicroUsd } from '../../shared/domain/storage-billing';
import type { PriceChangesOf } from '../../shared/usecases/price-history';
import { taskBody } from './task-view';

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

/** Spot price history read for a lease's instances, shown as each one's price in force. */
export interface LeasePricing {
  readonly changesOf: PriceChangesOf;
  readonly nowMs: number;
}

/** The hourly price an instance pays now (at its end, once ended) and where it comes from. */
function priceInForceBody(instance: LeaseInstance, pricing: LeasePricing) {
  const atMs = Math.min(pricing.nowMs, instance.endedAtMs ?? pricing.nowMs);
  const price = priceInForce({ ...instance, priceChanges: pricing.changesOf(instance) }, atMs);
  return {
    pricePerHourUsd: microToUsd(price.priceMicroUsdPerHour),
    since: iso(price.sinceMs),
    source: price.source,
  };
}

function instanceBody(instance: LeaseInstance, pricing: LeasePricing | undefined) {
  return {
    instanceId: instance.instanceId,
    instanceType: instance.instanceType,
    mode: instance.mode,
    region: instance.region,
    zone: instance.zone,
    pricePerHourUsd: microToUsd(instance.priceMicroUsdPerHour),
    priceInForce: pricing && priceInForceBody(instance, pricing),
    launchedAt: iso(instance.launchedAtMs),
    endedAt: iso(instance.endedAtMs),
    billedSeconds: instance.billedSeconds,
    costMicroUsd: billedTotalMicroUsd(instance),
    costUsd: microToUsd(billedTotalMicroUsd(instance)),
    costByDimension: billedByDimension(instance),
  };
}

/** Where a lease waiting for admission stands, as the API shows it (on a lease and on a group's waiting members). */
export const queueBody = (queue: LeaseQueueState) => ({
  reason: queue.reason,
  position: queue.position,
  estimatedStartAt: queue.estimatedStartAtMs === null ? undefined : iso(queue.estimatedStartAtMs),
  estimateBasis: queue.estimateBasis,
  waitEndsAt: queue.waitEndsAtMs === undefined ? undefined : iso(queue.waitEndsAtMs),
});

/**
 * The API's shape of a lease: metered cost so far (every dimension), exact in
 * micro-dollars and as USD, and split by dimension; with `pricing`, each
 * instance's price in force and its source.
 */
export function leaseBody(lease: LeaseView, pricing?: LeasePricing) {
  const costMicroUsd = lease.instances.reduce((sum, instance) => sum + billedTotalMicroUsd(instance), 0);
  const costByDimension: Record<BillingDimension, MicroUsd> = { compute: 0, storage: 0, transfer: 0 };
  for (const instance of lease.instances) {
    const billed = billedByDimension(instance);
    for (const dimension of BILLING_DIMENSIONS) costByDimension[dimension] += billed[dimension];
  }
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
    releaseReason: lease.releaseReason,
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
    start: lease.placement?.start,
    secondsToRunning: lease.placement?.secondsToRunning,
    costMicroUsd,
    costUsd: microToUsd(costMicroUsd),
    costByDimension,
    instances: lease.instances.map((instance) => instanceBody(instance, pricing)),
    task: lease.task && taskBody(lease.task, lease.deadlineDecision, pricing?.nowMs),
    priority: lease.priority,
    maxWaitMinutes: lease.maxWaitMinutes,
    queue: lease.status === 'QUEUED' && lease.queue ? queueBody(lease.queue) : undefined,
  };
}
