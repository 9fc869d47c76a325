import type { LeasePlacement, LeaseView } from '../domain/lease';
import type { MicroUsd } from '../domain/money';
import { warmCandidates } from '../domain/warm-pools/claim';
import type { WarmMachine } from '../domain/warm-pools/machine';
import { CapacityUnavailableError, type ComputeInstance } from '../ports/compute';
import type { Provisioning } from './dependencies';
import { meterStoppedVolumes, warmMachineStretches } from './fleet-storage';

export interface WarmStarted {
  readonly instances: ComputeInstance[];
  readonly priceMicroUsdPerHour: MicroUsd;
  readonly placement: LeasePlacement;
  readonly machines: readonly WarmMachine[];
}

/**
 * Serves the lease's missing GPUs from ready warm machines when the claim rule
 * allows: each machine is claimed with one conditional write (two leases
 * racing for one machine: one gets it, the other tries the next or launches
 * cold), then started for the lease. The instances are metered from the start
 * at the on-demand price: the time a machine sat stopped is never the tenant's.
 * EC2 refusing to start one (no capacity) ends the claimed machines (the
 * filler replaces them) and the lease launches cold.
 * Undefined: no warm machine serves this lease, launch as usual.
 */
export async function startWarmMachines(
  deps: Provisioning,
  lease: LeaseView,
  want: {
    readonly gpus: number;
    readonly instanceTypes: readonly string[];
    readonly regions: readonly string[];
    readonly mode: LeasePlacement['mode'];
    readonly image: string | undefined;
    readonly reason: string;
  },
): Promise<WarmStarted | undefined> {
  const found = warmCandidates(await deps.warmPools.listMachines(), {
    ...want,
    instances: (type) => {
      const perInstance = deps.catalog.gpusPerInstance(type);
      return want.gpus % perInstance === 0 ? want.gpus / perInstance : 0;
    },
  });
  if (!found) return undefined;
  const nowMs = deps.now();
  const claimed: WarmMachine[] = [];
  for (const candidate of found.candidates) {
    if (claimed.length === found.needed) break;
    if (await deps.warmPools.claim(candidate, lease.leaseId, nowMs))
      claimed.push({ ...candidate, state: 'claimed', claimedBy: lease.leaseId, claimedAtMs: nowMs });
  }
  if (claimed.length < found.needed) {
    // Others took the rest first: give these back and launch cold.
    for (const machine of claimed) await deps.warmPools.changeState(machine, ['claimed'], 'ready', nowMs);
    return undefined;
  }
  const price = deps.catalog.onDemandMicroPerHour(found.instanceType, claimed[0]?.region ?? deps.region);
  const hourly = price * claimed.length;
  if (lease.maxHourlyMicroUsd !== undefined && hourly > lease.maxHourlyMicroUsd) {
    for (const machine of claimed) await deps.warmPools.changeState(machine, ['claimed'], 'ready', nowMs);
    return undefined;
  }
  const pools = new Set(claimed.map((m) => m.pool));
  try {
    for (const machine of claimed) {
      await deps.compute.startForLease(machine, { tenantId: lease.tenantId, leaseId: lease.leaseId });
    }
  } catch (error) {
    // Already retagged to the lease, a machine that did not start would be adopted stopped on a
    // retry: every claimed machine ends, and the filler launches their successors.
    await deps.compute.terminate(claimed);
    await forgetStartedMachines(deps, claimed);
    for (const pool of pools) await deps.warmFill.requestFill(pool);
    if (!(error instanceof CapacityUnavailableError)) throw error;
    deps.metrics.launchFailed('on-demand', error.code);
    return undefined;
  }
  const startedAtMs = deps.now();
  for (const pool of pools) await deps.warmFill.requestFill(pool);
  const first = claimed[0] as WarmMachine;
  return {
    instances: claimed.map((machine) => ({
      instanceId: machine.instanceId,
      region: machine.region,
      zone: machine.zone,
      instanceType: machine.instanceType,
      mode: 'on-demand',
      launchedAtMs: startedAtMs,
      leaseId: lease.leaseId,
      tenantId: lease.tenantId,
    })),
    priceMicroUsdPerHour: price,
    machines: claimed,
    placement: {
      region: first.region,
      zone: first.zone,
      instanceType: first.instanceType,
      instances: claimed.length,
      mode: 'on-demand',
      hourlyMicroUsd: hourly,
      image: first.imageVersion,
      start: 'warm',
      reason: `${want.reason}; started ${claimed.length} stopped machine(s) of warm pool ${first.pool}`,
    },
  };
}

/**
 * Claimed machines now recorded on their lease: the fleet's bill for their
 * stopped volumes closes at the claim (the lease pays from its start), then
 * their pool records go.
 */
export async function forgetStartedMachines(
  deps: Pick<Provisioning, 'warmPools' | 'fleetStorage' | 'catalog' | 'now'>,
  started: readonly WarmMachine[],
): Promise<void> {
  await meterStoppedVolumes(deps, warmMachineStretches(started), deps.now());
  for (const machine of started) await deps.warmPools.remove(machine, ['claimed']);
}
