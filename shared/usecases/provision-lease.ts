import type { LeaseInstance, LeasePlacement, LeaseView, RentalMode } from '../domain/lease';
import type { MicroUsd } from '../domain/money';
import { choosePool, type Pool, poolKey, withCapacityFailure } from '../domain/placement';
import { chooseRentalMode, type ModeDecision } from '../domain/rental-mode';
import type { ReservableLease } from '../domain/reservations';
import { CapacityUnavailableError, type ComputeInstance } from '../ports/compute';
import type { ControlPlane } from './dependencies';
import { toLeaseInstances, unrecordedInstances } from './lease-instances';
import { candidateInstanceTypes } from './lease-shape';
import { livePools } from './pools';
import { completeRelease, endInstances } from './release-lease';
import { claimSlots, reservableLease, reservedOptions } from './reserved-slots';

export type ProvisionOutcome = 'running' | 'failed' | 'released' | 'not-pending' | 'missing';

/**
 * Launches the lease's instances and marks it RUNNING. Idempotent without help
 * from EC2: instances an earlier delivery launched are found by their lease tag
 * and adopted, so a duplicate message launches nothing twice, and only the GPUs
 * still missing are placed.
 */
export async function provisionLease(
  deps: ControlPlane,
  tenantId: string,
  leaseId: string,
): Promise<ProvisionOutcome> {
  const lease = await deps.leases.get(tenantId, leaseId);
  if (!lease) return 'missing';
  if (lease.status !== 'PENDING') return 'not-pending';

  const adopted = await unrecordedInstances(deps, leaseId, lease.instances);
  const ownedGpus = [...lease.instances.filter((i) => i.meteringOpen), ...adopted].reduce(
    (sum, i) => sum + gpusOf(deps, i.instanceType),
    0,
  );
  const regions = lease.regions ?? deps.placement.regions;
  const instanceTypes = candidateInstanceTypes(deps, lease, regions, lease.instanceType);
  const missing = reservableLease(lease, Math.max(0, lease.gpus - ownedGpus), deps.now());
  // The real free reserved GPUs: what assignReservedGpus would give this lease on its best commitment.
  const reserved = await reservedOptions(deps, missing, instanceTypes, regions, deps.now());
  const decision = chooseRentalMode({
    workload: lease.workload,
    gpus: missing.gpus,
    requestedMode: lease.requestedMode,
    freeReservedGpus: reserved.freeReservedGpus,
  });

  let launch: Launched | undefined;
  if (missing.gpus > 0) {
    const placed = await placeAndLaunch(deps, lease, missing, decision, instanceTypes, reserved.pools);
    if ('failure' in placed) return failLease(deps, lease, placed.failure);
    launch = placed;
  }
  const launched = launch?.instances ?? [];
  const records = await toLeaseInstances(deps, lease, [...adopted, ...launched], (instance) =>
    launched.includes(instance) ? launch?.priceMicroUsdPerHour : undefined,
  );
  await deps.leases.recordInstances(records);
  const placement =
    launch?.placement ??
    adoptedPlacement([...lease.instances.filter((i) => i.meteringOpen), ...records], decision);

  if (!(await deps.leases.transition(tenantId, leaseId, ['PENDING'], 'RUNNING', deps.now(), { placement }))) {
    // Released while we launched: the new instances are owned and now ended with it.
    const outcome = await completeRelease(deps, tenantId, leaseId);
    return outcome === 'released' ? 'released' : 'not-pending';
  }
  await deps.events.publish([
    {
      type: 'LeaseRunning',
      tenantId,
      detail: { leaseId, mode: placement.mode, reason: placement.reason, gpus: lease.gpus, placement },
    },
  ]);
  return 'running';
}

interface Launched {
  readonly instances: ComputeInstance[];
  readonly priceMicroUsdPerHour: MicroUsd;
  readonly placement: LeasePlacement;
}

const gpusOf = (deps: Pick<ControlPlane, 'catalog'>, instanceType: string) =>
  deps.catalog.offering(instanceType)?.gpuCount ?? 1;

/**
 * Ranks the pools of the chosen mode, then of its fallback, with choosePool and
 * launches into the best one; a pool that refuses capacity is marked
 * unavailable (here and in the container's cache) and the next is tried.
 * Fails only when every allowed pool refused or none is left, saying which.
 */
async function placeAndLaunch(
  deps: ControlPlane,
  lease: LeaseView,
  missing: ReservableLease,
  decision: ModeDecision,
  instanceTypes: readonly string[],
  reservedPools: readonly Pool[],
): Promise<Launched | { failure: string }> {
  const { gpus } = missing;
  const modes: RentalMode[] =
    decision.fallback && decision.fallback !== decision.mode
      ? [decision.mode, decision.fallback]
      : [decision.mode];
  let pools: Pool[] = [
    ...(await livePools(deps, { instanceTypes, regions: lease.regions, modes, nowMs: deps.now() })),
    ...(modes.includes('reserved') ? reservedPools : []),
  ];
  const refused: string[] = [];
  const unplaceable: string[] = [];
  for (const mode of modes) {
    for (;;) {
      const choice = choosePool(
        {
          instanceTypes,
          mode,
          nowMs: deps.now(),
          gpus,
          dataRegion: lease.dataRegion,
          dataGb: lease.dataGb,
          maxHourlyMicroUsd: lease.maxHourlyMicroUsd,
          costs: deps.placement.costs,
        },
        pools,
      );
      const pool = choice.pool;
      if (pool === null) {
        unplaceable.push(choice.reason);
        break;
      }
      const commitmentId = pool.commitmentId;
      if (commitmentId && (await claimSlots(deps, commitmentId, missing)) === 'no-room') {
        // Another lease took the room since the pools were read.
        pools = markRefused(deps, pools, pool);
        refused.push(`${poolKey(pool)} (CommitmentFull)`);
        continue;
      }
      try {
        const instances = await deps.compute.launch({
          tenantId: lease.tenantId,
          leaseId: lease.leaseId,
          region: pool.region,
          zone: pool.zone,
          instanceType: pool.instanceType,
          mode,
          count: choice.instances,
          clientToken: `${lease.leaseId}-${refused.length}-${choice.instances}`,
          commitmentId,
          capacityReservationId: pool.capacityReservationId,
        });
        const refusals = refused.length > 0 ? `; refused first: ${refused.join(', ')}` : '';
        return {
          instances,
          priceMicroUsdPerHour: pool.priceMicroUsdPerHour,
          placement: {
            region: pool.region,
            zone: pool.zone,
            instanceType: pool.instanceType,
            instances: choice.instances,
            mode,
            hourlyMicroUsd: choice.hourlyMicroUsd,
            reason: `${decision.reason}; ${choice.reason}${refusals}`,
          },
        };
      } catch (error) {
        if (!(error instanceof CapacityUnavailableError)) throw error;
        if (commitmentId) await deps.commitments.release(commitmentId, lease.leaseId);
        pools = markRefused(deps, pools, pool);
        refused.push(`${poolKey(pool)} (${error.code})`);
      }
    }
  }
  const refusals = refused.length > 0 ? `every allowed pool refused: ${refused.join(', ')}; ` : '';
  return { failure: `${refusals}${unplaceable.join('; ')}` };
}

/** The pool refused: it sits out its back-off here and in the container's unavailable-offerings cache. */
function markRefused(deps: ControlPlane, pools: readonly Pool[], refused: Pool): Pool[] {
  const atMs = deps.now();
  deps.placement.unavailable.markUnavailable(refused, atMs);
  const key = poolKey(refused);
  return pools.map((p) => (poolKey(p) === key ? withCapacityFailure(p, atMs) : p));
}

/** Every GPU was already owned (an earlier attempt launched them): the placement is where they run. */
function adoptedPlacement(owned: readonly LeaseInstance[], decision: ModeDecision): LeasePlacement {
  const first = owned[0];
  return {
    region: first?.region ?? '',
    zone: first?.zone ?? '',
    instanceType: first?.instanceType ?? '',
    instances: owned.length,
    mode: first?.mode ?? decision.mode,
    hourlyMicroUsd: owned.reduce((sum, i) => sum + i.priceMicroUsdPerHour, 0),
    reason: `${decision.reason}; adopted the instances an earlier attempt launched`,
  };
}

/** No capacity anywhere: whatever an earlier attempt launched is ended, then the lease FAILS. */
async function failLease(deps: ControlPlane, lease: LeaseView, reason: string): Promise<ProvisionOutcome> {
  const { tenantId, leaseId } = lease;
  await endInstances(deps, lease);
  if (
    await deps.leases.transition(tenantId, leaseId, ['PENDING'], 'FAILED', deps.now(), {
      failureReason: reason,
    })
  ) {
    await deps.events.publish([{ type: 'LeaseFailed', tenantId, detail: { leaseId, reason } }]);
  }
  return 'failed';
}
