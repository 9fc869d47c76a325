import { createHash } from 'node:crypto';
import { planFill } from '../domain/warm-pools/fill';
import type { WarmMachine, WarmMachineObservation } from '../domain/warm-pools/machine';
import type { WarmPool } from '../domain/warm-pools/pool';
import { CapacityUnavailableError } from '../ports/compute';
import type { ControlPlane } from './dependencies';
import { meterStoppedVolumes, warmMachineStretches } from './fleet-storage';
import { poolImageVersion, type WarmPoolDeps } from './warm-pools';

/** A claim older than this whose lease never recorded the machine: the worker died; the record goes. */
export const STALE_CLAIM_MS = 10 * 60_000;

export type FillDeps = WarmPoolDeps & Pick<ControlPlane, 'metrics' | 'fleetStorage'>;

export interface FillSummary {
  readonly launched: number;
  readonly replaced: number;
  readonly stopped: number;
  readonly ready: number;
  readonly forgotten: number;
  /** Launches EC2 refused in every zone of a pool (tried again on the next run). */
  readonly refused: number;
}

const UNCLAIMED = ['launching', 'stopping', 'ready'] as const;

/**
 * Keeps every pool at size: forgets machines EC2 ended, replaces those of an
 * image version no longer current (or that never initialised, or over size),
 * stops those that signalled ready, marks stopped ones claimable and launches
 * the rest. Machines of a deleted pool are ended. Every state change is
 * conditional, so a lease claiming a machine meanwhile keeps it.
 */
export async function fillWarmPools(deps: FillDeps): Promise<FillSummary> {
  const [pools, machines, instances] = await Promise.all([
    deps.warmPools.listPools(),
    deps.warmPools.listMachines(),
    deps.compute.managedInstances(),
  ]);
  // Ready: the machine's user data tagged it with the very image version it was launched from.
  const builtFrom = new Map(machines.map((m) => [m.instanceId, m.imageVersion]));
  const observed = new Map<string, WarmMachineObservation>(
    instances.map((i) => [
      i.instanceId,
      {
        state: i.state ?? '',
        readySignal: i.warmReadyImage !== undefined && i.warmReadyImage === builtFrom.get(i.instanceId),
      },
    ]),
  );
  const nowMs = deps.now();
  // The stopped machines' volumes up to now, before any record below goes: the fleet's overhead.
  await meterStoppedVolumes(deps, warmMachineStretches(machines), nowMs);
  for (const stale of machines.filter(
    (m) => m.state === 'claimed' && nowMs - (m.claimedAtMs ?? 0) > STALE_CLAIM_MS,
  ))
    await deps.warmPools.remove(stale, ['claimed']);
  const byName = new Map(pools.map((pool) => [pool.name, pool]));
  const orphaned = machines.filter((m) => m.state !== 'claimed' && !byName.has(m.pool));
  const totals = { launched: 0, replaced: 0, stopped: 0, ready: 0, forgotten: 0, refused: 0 };
  // A deleted pool's machines: a pool of size 0.
  const groups: [WarmPool | undefined, WarmMachine[]][] = [
    ...pools.map((pool): [WarmPool, WarmMachine[]] => [
      pool,
      machines.filter((m) => m.pool === pool.name && m.state !== 'claimed'),
    ]),
    [undefined, orphaned],
  ];
  for (const [pool, own] of groups) {
    const image = pool && (await poolImageVersion(deps, pool.image));
    const currentImage = image ? `${image.name}:${image.version}` : undefined;
    const plan = planFill({ size: pool?.size ?? 0, currentImage, machines: own, observed, nowMs });
    for (const machine of plan.forget)
      if (await deps.warmPools.remove(machine, UNCLAIMED)) totals.forgotten += 1;
    const ending: WarmMachine[] = [];
    for (const machine of plan.replace)
      if (await deps.warmPools.remove(machine, UNCLAIMED)) ending.push(machine);
    await deps.compute.terminate(ending);
    totals.replaced += ending.length;
    const stopping: WarmMachine[] = [];
    for (const machine of plan.stop)
      if (await deps.warmPools.changeState(machine, ['launching'], 'stopping', nowMs)) stopping.push(machine);
    await deps.compute.stop(stopping);
    totals.stopped += stopping.length;
    for (const machine of plan.markReady)
      if (await deps.warmPools.changeState(machine, ['stopping'], 'ready', nowMs)) totals.ready += 1;
    if (pool && image && plan.launch > 0) {
      const launched = await launchInto(
        deps,
        pool,
        currentImage as string,
        image.launchTemplateVersionByRegion[pool.region],
        plan.launch,
      );
      totals.launched += launched;
      totals.refused += plan.launch - launched;
    }
  }
  return totals;
}

/** Launches `count` machines of the pool, zone by zone until one has capacity; returns how many launched. */
async function launchInto(
  deps: FillDeps,
  pool: WarmPool,
  imageVersion: string,
  launchTemplateVersion: string | undefined,
  count: number,
): Promise<number> {
  const zones =
    pool.zone !== undefined
      ? [pool.zone]
      : ((await deps.compute.fleet()).find((r) => r.region === pool.region)?.zones ?? []);
  const nowMs = deps.now();
  for (const zone of zones) {
    try {
      const instances = await deps.compute.launchWarm({
        pool: pool.name,
        region: pool.region,
        zone,
        instanceType: pool.instanceType,
        count,
        // Unique per launch: EC2 refuses a token reused with other parameters (another zone or image).
        clientToken: `warm-${createHash('sha256')
          .update(JSON.stringify([pool.name, zone, imageVersion, nowMs, count]))
          .digest('hex')
          .slice(0, 40)}`,
        imageVersion,
        launchTemplateVersion,
        prePull: pool.prePull,
      });
      await deps.warmPools.addMachines(
        instances.map((instance) => ({
          pool: pool.name,
          instanceId: instance.instanceId,
          region: instance.region,
          zone: instance.zone || zone,
          instanceType: pool.instanceType,
          imageVersion,
          state: 'launching',
          launchedAtMs: instance.launchedAtMs || nowMs,
        })),
      );
      return instances.length;
    } catch (error) {
      if (!(error instanceof CapacityUnavailableError)) throw error;
      deps.metrics.launchFailed('on-demand', error.code);
    }
  }
  return 0;
}
