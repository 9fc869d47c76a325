import { settleAll } from '../concurrency';
import type { CapacityShortfall } from '../domain/admission/capacity';
import { type PoolPin, steeredLaunch } from '../domain/deadlines/steering';
import type { ImageVersion } from '../domain/images';
import type { LeaseInstance, LeasePlacement, LeaseView, RentalMode } from '../domain/lease';
import type { MicroUsd } from '../domain/money';
import { choosePool, type Pool, poolKey, withCapacityFailure } from '../domain/placement';
import { transferMicroUsd } from '../domain/placement-costs';
import { chooseRentalMode, type ModeDecision } from '../domain/rental-mode';
import type { ReservableLease } from '../domain/reservations';
import type { WarmMachine } from '../domain/warm-pools/machine';
import {
  AccountQuotaExceededError,
  CapacityUnavailableError,
  type ComputeInstance,
  LaunchNotAuthorizedError,
} from '../ports/compute';
import type { TransitionChanges } from '../ports/lease-repository';
import { admitOrQueue, freeAdmission, queueRefused } from './admission/queue';
import type { Provisioning } from './dependencies';
import { imageForLaunch } from './images';
import { heldInstances, toLeaseInstances, unrecordedInstances } from './lease-instances';
import { candidateInstanceTypes } from './lease-shape';
import { livePools } from './pools';
import { completeRelease, endInstances } from './release-lease';
import { claimSlots, type ReservedOptions, reservableLease, reservedOptions } from './reserved-slots';
import { noSteering, type Steer } from './steer';
import { forgetStartedMachines, startWarmMachines } from './warm-start';

/**
 * What follows a lease's RUNNING: prepared with the lease as read once its
 * launch is decided (work that need not wait for the launch starts then),
 * run once the lease is RUNNING.
 */
export type WhenRunning = (lease: LeaseView) => () => Promise<unknown>;

/** `waiting`: a job with a deadline whose policy said wait; it stays PENDING for the schedule's next look. */
export type ProvisionOutcome =
  | 'running'
  | 'queued'
  | 'waiting'
  | 'failed'
  | 'released'
  | 'not-pending'
  | 'missing';

/**
 * Launches the lease's instances and marks it RUNNING. Idempotent without help
 * from EC2: instances an earlier delivery launched are found by their lease tag
 * and adopted, so a duplicate message launches nothing twice, and only the GPUs
 * still missing are placed. `whenRunning` is given the lease once its launch
 * is decided, and what it returns runs once the lease is RUNNING, beside the
 * LeaseRunning announcement.
 */
export async function provisionLease(
  deps: Provisioning,
  tenantId: string,
  leaseId: string,
  steer: Steer = noSteering,
  whenRunning?: WhenRunning,
): Promise<ProvisionOutcome> {
  const lease = await deps.leases.get(tenantId, leaseId);
  if (!lease) return 'missing';
  if (lease.status !== 'PENDING') return 'not-pending';
  const admission = await admitOrQueue(deps, lease);
  if (admission === 'queued') return 'queued';
  if (admission === 'ended') return 'not-pending';

  // A job with a deadline goes where its policy says, or waits.
  const decision = await steer(lease, 'launch');
  const steered = decision && steeredLaunch(decision);
  if (decision && !steered) return 'waiting';
  const onRunning = whenRunning?.(lease);
  const filled = await fillMissingGpus(
    deps,
    lease,
    // A lease admitted as it joined was never launched: no instance of an earlier attempt to look for
    // (a DescribeInstances per region saved per lease; moto walks every instance it ever launched).
    { launchedBefore: admission !== 'admitted-on-joining' },
    (reserved, missing) =>
      steered ??
      chooseRentalMode({
        workload: lease.workload,
        gpus: missing.gpus,
        requestedMode: lease.requestedMode,
        freeReservedGpus: reserved.freeReservedGpus,
      }),
  );
  if ('failure' in filled) {
    if (filled.shortfall && (await queueRefused(deps, lease, filled.shortfall))) return 'queued';
    return failLease(deps, lease, 'PENDING', filled.failure);
  }
  const placement: LeasePlacement = {
    ...filled.placement,
    start: filled.placement.start ?? 'cold',
    secondsToRunning: (deps.now() - lease.createdAtMs) / 1000,
  };
  if (
    !(await deps.leases.transition(tenantId, leaseId, ['PENDING'], 'RUNNING', deps.now(), placed(placement)))
  ) {
    // Released while we launched: the new instances are owned and now ended with it.
    const outcome = await completeRelease(deps, tenantId, leaseId);
    return outcome === 'released' ? 'released' : 'not-pending';
  }
  deps.metrics.leaseRunning(deps.now() - lease.createdAtMs);
  // What follows RUNNING (the task's start) does not wait on the announcement's PutEvents; both end before this returns.
  await settleAll([
    deps.events.publish([
      {
        type: 'LeaseRunning',
        tenantId,
        detail: { leaseId, mode: placement.mode, reason: placement.reason, gpus: lease.gpus, placement },
      },
    ]),
    onRunning?.(),
  ]);
  return 'running';
}

/**
 * What a lease records once placed: the placement, and the type it runs on as
 * its instance type (a GPU-model lease was stored with a provisional one, and
 * every view of the lease shows the type it really runs).
 */
export function placed(placement: LeasePlacement): TransitionChanges {
  return placement.instanceType === '' ? { placement } : { placement, instanceType: placement.instanceType };
}

/** The mode for the missing GPUs, and for a job with a deadline the pool its decision names. */
export type PinnedModeDecision = ModeDecision & { readonly pin?: PoolPin | undefined };

/**
 * Why nothing was launched; `shortfall` when pools refused for lack of room
 * (every refusal the account's vCPU quota: `account-quota`), so the lease can
 * wait for room instead of failing.
 */
export interface PlacementFailure {
  readonly failure: string;
  readonly shortfall?: CapacityShortfall | undefined;
}

/** Decides the mode for the GPUs still missing, given what reserved commitments could carry. */
export type MissingGpusDecision = (reserved: ReservedOptions, missing: ReservableLease) => PinnedModeDecision;

/**
 * Places and launches the GPUs the lease does not own yet (open, uninterrupted
 * instances, plus live ones an earlier attempt launched but never recorded,
 * which are adopted) and records them. Shared by provisioning and by the
 * replacement of interrupted instances.
 */
export async function fillMissingGpus(
  deps: Provisioning,
  lease: LeaseView,
  /** False only when nothing can have been launched for the lease yet, so no stray needs adopting. */
  history: { readonly launchedBefore: boolean },
  decide: MissingGpusDecision,
): Promise<{ placement: LeasePlacement } | PlacementFailure> {
  const adopted = history.launchedBefore
    ? await unrecordedInstances(deps, lease.leaseId, lease.instances)
    : [];
  const kept = heldInstances(lease.instances);
  const ownedGpus = [...kept, ...adopted].reduce(
    (sum, i) => sum + deps.catalog.gpusPerInstance(i.instanceType),
    0,
  );
  const image = await imageForLaunch(deps, lease);
  // With an image version, only regions it has an AMI (and a launch template version) in.
  const allowed = (lease.regions ?? deps.placement.regions).filter(
    (region) => !image || image.launchTemplateVersionByRegion[region] !== undefined,
  );
  if (allowed.length === 0)
    return { failure: `image ${image?.name}:${image?.version} has no AMI in the allowed regions` };
  const instanceTypes = candidateInstanceTypes(deps, lease, allowed, lease.instanceType);
  const missing = reservableLease(lease, Math.max(0, lease.gpus - ownedGpus), deps.now());
  // The real free reserved GPUs: what assignReservedGpus would give this lease on its best commitment.
  const reserved = await reservedOptions(deps, missing, instanceTypes, allowed, deps.now());
  const decision = decide(reserved, missing);
  const { pin } = decision;
  const regions = pin ? allowed.filter((region) => region === pin.region) : allowed;
  if (regions.length === 0) return { failure: `${decision.reason}; ${pin?.region} is not allowed` };

  let launch: Launched | undefined;
  if (missing.gpus > 0) {
    launch = await startWarmMachines(deps, lease, {
      gpus: missing.gpus,
      instanceTypes,
      regions,
      mode: decision.mode,
      image: image && `${image.name}:${image.version}`,
      reason: decision.reason,
    });
  }
  if (missing.gpus > 0 && !launch) {
    const placed = await placeAndLaunch(deps, lease, missing, decision, {
      instanceTypes,
      regions,
      reservedPools: reserved.pools,
      image,
      pin,
    });
    if ('failure' in placed) return placed;
    launch = placed;
  }
  const launched = launch?.instances ?? [];
  const records = await toLeaseInstances(deps, lease, [...adopted, ...launched], (instance) =>
    launched.includes(instance) ? launch?.priceMicroUsdPerHour : undefined,
  );
  await deps.leases.recordInstances(
    withCheckpointCarrier(deps, lease, withDataTransfer(deps, lease, records)),
  );
  if (launch?.machines) await forgetStartedMachines(deps, launch.machines);
  return {
    placement:
      launch?.placement ??
      adoptedPlacement(
        [...kept, ...records],
        'every GPU runs on instances an earlier attempt launched; adopted them',
      ),
  };
}

/**
 * A lease placed away from its data pays for moving `dataGb` once, when it
 * starts: the charge rides on the first instance it records (a replacement
 * or a later fill adds none).
 */
function withDataTransfer(deps: Provisioning, lease: LeaseView, records: LeaseInstance[]): LeaseInstance[] {
  const [first, ...rest] = records;
  if (!first || lease.instances.length > 0) return records;
  const transfer = transferMicroUsd(
    deps.placement.costs,
    lease.dataRegion,
    first.region ?? '',
    lease.dataGb ?? 0,
  );
  return transfer > 0 ? [{ ...first, transferMicroUsd: transfer }, ...rest] : records;
}

/**
 * A lease with a task stores checkpoints under its prefix, billed on exactly
 * one of its held instances at a time: the first recorded while none of its
 * held instances carries them (a replacement takes over from the warned one,
 * whose carrying stops at the warning; shared/domain/checkpoint-billing.ts).
 * The bucket lives in the home region and is priced there.
 */
function withCheckpointCarrier(
  deps: Provisioning,
  lease: LeaseView,
  records: LeaseInstance[],
): LeaseInstance[] {
  const [first, ...rest] = records;
  const prices = deps.catalog.storage;
  if (!first || !lease.task || !prices) return records;
  if (heldInstances(lease.instances).some((i) => i.checkpointMicroUsdPerGbMonth !== undefined))
    return records;
  return [{ ...first, checkpointMicroUsdPerGbMonth: prices.s3StandardMicroPerGbMonth(deps.region) }, ...rest];
}

interface Launched {
  readonly instances: ComputeInstance[];
  readonly priceMicroUsdPerHour: MicroUsd;
  readonly placement: LeasePlacement;
  /** The warm machines started instead of launching. */
  readonly machines?: readonly WarmMachine[];
}

/**
 * What placement added to a decision that named the spot pool already (a
 * deadline job's): the decision's reason gives the zone and the price, so
 * saying "the cheapest open pool" as well would repeat them and mislead,
 * since only that zone was open to the choice; the instance type is news.
 */
function pinnedChoiceWhy(pool: Pool, instances: number): string {
  return `${instances > 1 ? `${instances} × ` : ''}${pool.instanceType} there`;
}

/**
 * Ranks the pools of the chosen mode, then of its fallback, with choosePool and
 * launches into the best one; a pool that refuses capacity is marked
 * unavailable (here and in the container's cache) and the next is tried.
 * Fails only when every allowed pool refused or none is left, saying which;
 * the shortfall says when that is for lack of room (refusals, or pools still
 * backed off after earlier ones), which the lease waits out in the queue.
 */
async function placeAndLaunch(
  deps: Provisioning,
  lease: LeaseView,
  missing: ReservableLease,
  decision: ModeDecision,
  where: {
    readonly instanceTypes: readonly string[];
    readonly regions: readonly string[];
    readonly reservedPools: readonly Pool[];
    readonly image: ImageVersion | undefined;
    /** A deadline decision's pool: its zone binds spot launches (the regions are narrowed already). */
    readonly pin?: PoolPin | undefined;
  },
): Promise<Launched | PlacementFailure> {
  const { instanceTypes, regions, reservedPools, image, pin } = where;
  const { gpus } = missing;
  const modes: RentalMode[] =
    decision.fallback && decision.fallback !== decision.mode
      ? [decision.mode, decision.fallback]
      : [decision.mode];
  let pools: Pool[] = [
    ...(await livePools(deps, { instanceTypes, regions, modes, nowMs: deps.now() })),
    ...(modes.includes('reserved') ? reservedPools.filter((pool) => regions.includes(pool.region)) : []),
  ].filter((pool) => pin?.zone === undefined || pool.mode !== 'spot' || pool.zone === pin.zone);
  const refused: string[] = [];
  let onlyAccountQuota = true;
  const unplaceable: string[] = [];
  // Pools backed off after earlier refusals (this container's marks) or without spot capacity now.
  let backedOff = false;
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
        backedOff ||= choice.shortOfCapacity;
        break;
      }
      const commitmentId = pool.commitmentId;
      if (commitmentId && (await claimSlots(deps, commitmentId, missing)) === 'no-room') {
        // Another lease took the room since the pools were read.
        pools = markRefused(deps, pools, pool);
        onlyAccountQuota = false;
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
          // Unique per fill (a replacement follows the instances recorded so far): EC2 answers a
          // token reused with other parameters with IdempotentParameterMismatch, not a launch.
          clientToken: `${lease.leaseId}-${lease.instances.length}-${refused.length}-${choice.instances}`,
          commitmentId,
          capacityReservationId: pool.capacityReservationId,
          launchTemplateVersion: image?.launchTemplateVersionByRegion[pool.region],
        });
        const refusals = refused.length > 0 ? `; refused first: ${refused.join(', ')}` : '';
        const why =
          pin?.zone !== undefined && mode === 'spot'
            ? pinnedChoiceWhy(pool, choice.instances)
            : choice.reason;
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
            image: image && `${image.name}:${image.version}`,
            reason: `${decision.reason}; ${why}${refusals}`,
          },
        };
      } catch (error) {
        if (error instanceof LaunchNotAuthorizedError) {
          // Not a pool short of room: no other pool of this deployment is more likely to be allowed,
          // and a retry of the command fails the same way. The lease FAILS now, saying why.
          deps.metrics.launchFailed(mode, error.code);
          if (commitmentId) await deps.commitments.release(commitmentId, lease.leaseId);
          return { failure: `${error.message}; the deployment's launch permissions need fixing` };
        }
        if (!(error instanceof CapacityUnavailableError)) throw error;
        deps.metrics.launchFailed(error.mode, error.code);
        if (commitmentId) await deps.commitments.release(commitmentId, lease.leaseId);
        pools = markRefused(deps, pools, pool);
        onlyAccountQuota &&= error instanceof AccountQuotaExceededError;
        refused.push(`${poolKey(pool)} (${error.code})`);
      }
    }
  }
  if (refused.length === 0) {
    // Only pools short of capacity for now: like a refusal, the lease waits for room rather than failing.
    return backedOff
      ? { failure: `no pool has capacity now: ${unplaceable.join('; ')}`, shortfall: 'capacity' }
      : { failure: unplaceable.join('; ') };
  }
  return {
    failure: `every allowed pool refused: ${refused.join(', ')}; ${unplaceable.join('; ')}`,
    shortfall: onlyAccountQuota ? 'account-quota' : 'capacity',
  };
}

/** The pool refused: it sits out its back-off here and in the container's unavailable-offerings cache. */
function markRefused(deps: Provisioning, pools: readonly Pool[], refused: Pool): Pool[] {
  const atMs = deps.now();
  deps.placement.unavailable.markUnavailable(refused, atMs);
  const key = poolKey(refused);
  return pools.map((p) => (poolKey(p) === key ? withCapacityFailure(p, atMs) : p));
}

/** Where instances the lease already owns run, as its placement (they were launched earlier). */
export function adoptedPlacement(owned: readonly LeaseInstance[], reason: string): LeasePlacement {
  const first = owned[0];
  return {
    region: first?.region ?? '',
    zone: first?.zone ?? '',
    instanceType: first?.instanceType ?? '',
    instances: owned.length,
    mode: first?.mode ?? 'on-demand',
    hourlyMicroUsd: owned.reduce((sum, i) => sum + i.priceMicroUsdPerHour, 0),
    reason,
  };
}

/** Why a lease FAILS whose provision (or start) command its queue dead-lettered. */
export const DEAD_LETTERED_REASON =
  "its provision command failed on every delivery and was dead-lettered; whatever it had launched was ended (the lease worker's logs say why each delivery failed)";

export type AbandonOutcome = 'failed' | 'not-pending' | 'missing';

/**
 * The queue gave up on the lease's provisioning: a lease still PENDING FAILS
 * (instances ended, admission hold freed), so it neither waits nor holds its
 * quota for good. One that moved on (a later delivery did launch it) is left.
 */
export async function abandonLease(
  deps: Provisioning,
  tenantId: string,
  leaseId: string,
): Promise<AbandonOutcome> {
  const lease = await deps.leases.get(tenantId, leaseId);
  if (!lease) return 'missing';
  if (lease.status !== 'PENDING') return 'not-pending';
  return failLease(deps, lease, 'PENDING', DEAD_LETTERED_REASON);
}

/** No capacity anywhere: whatever the lease still runs is ended, then the lease FAILS. */
export async function failLease(
  deps: Provisioning,
  lease: LeaseView,
  from: 'PENDING' | 'INTERRUPTED',
  reason: string,
): Promise<'failed'> {
  const { tenantId, leaseId } = lease;
  await endInstances(deps, lease);
  if (
    await deps.leases.transition(tenantId, leaseId, [from], 'FAILED', deps.now(), {
      failureReason: reason,
    })
  ) {
    if (lease.expiresAtMs !== undefined) await deps.expiry.cancel(leaseId);
    await deps.events.publish([{ type: 'LeaseFailed', tenantId, detail: { leaseId, reason } }]);
  }
  await freeAdmission(deps, leaseId);
  return 'failed';
}
