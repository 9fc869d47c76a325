import type { StoredDecision } from '../domain/deadlines/policy-input';
import { steeredLaunch } from '../domain/deadlines/steering';
import { EC2_EVENT_TYPES, type Ec2Event, ENDED_STATES } from '../domain/ec2-events';
import type { LeaseInstance, LeaseView } from '../domain/lease';
import type { Pool } from '../domain/placement';
import { chooseRentalMode } from '../domain/rental-mode';
import { planReclaim, RECLAIM_WARNING_MS } from '../domain/spot-reclaim';
import type { ComputeInstance } from '../ports/compute';
import type { ControlPlane, InterruptionMarking, Provisioning } from './dependencies';
import { heldInstances } from './lease-instances';
import { closeInstanceBill } from './metering';
import { livePools } from './pools';
import { adoptedPlacement, failLease, fillMissingGpus, placed } from './provision-lease';
import { noSteering, type Steer } from './steer';
import { endWarnedInstances, overdueWarned } from './warned-instances';

/** What an EC2 instance event touches: the lease, its bill, and (when interrupted) the replace command. */
export type Ec2EventDeps = InterruptionMarking &
  Pick<ControlPlane, 'compute' | 'catalog' | 'ledger' | 'spotPrices'>;

export type InterruptionOutcome =
  | 'interrupted'
  | 'already-seen'
  | 'pool-marked'
  | 'confirmed-running'
  | 'bill-closed'
  | 'not-ours';

/**
 * Reacts to one EC2 event about an instance gpurent may own:
 * - spot interruption warning: the lease goes INTERRUPTED (LeaseInterrupted)
 *   and a replacement is queued for when AWS takes the instance (2 minutes);
 * - rebalance recommendation: the offering is marked unavailable, so new
 *   launches avoid it before capacity goes;
 * - state change: `running` confirms the instance (and a lease still PENDING
 *   whose GPUs are all recorded becomes RUNNING); an ended state closes the
 *   instance's bill at the event's time, its real end, and an instance that
 *   ended without a warning or a release is handled as interrupted.
 * Every effect is a conditional write, so a redelivered event changes nothing.
 */
export async function handleEc2Event(deps: Ec2EventDeps, event: Ec2Event): Promise<InterruptionOutcome> {
  const atMs = Date.parse(event.time);
  const instanceId = event.detail['instance-id'];
  const regions = [event.region, ...deps.placement.regions.filter((region) => region !== event.region)];
  const instance = await deps.compute.findInstance(instanceId, regions);
  if (!instance?.leaseId || !instance.tenantId) return 'not-ours';

  if (event['detail-type'] === EC2_EVENT_TYPES.rebalance) {
    deps.placement.unavailable.markUnavailable(poolOf(instance), atMs);
    return 'pool-marked';
  }
  const lease = await deps.leases.get(instance.tenantId, instance.leaseId);
  const record = lease?.instances.find((i) => i.instanceId === instanceId);
  if (!lease || !record) return 'not-ours';

  if (event['detail-type'] === EC2_EVENT_TYPES.spotWarning) return markInterrupted(deps, lease, record, atMs);
  const { state } = event.detail;
  if (state === 'running') return confirmRunning(deps, lease, record, atMs);
  if (!ENDED_STATES.has(state)) return 'already-seen';
  if (record.meteringOpen) {
    await closeInstanceBill(deps, record, atMs, async () =>
      (await deps.leases.get(lease.tenantId, lease.leaseId))?.instances.find(
        (i) => i.instanceId === instanceId,
      ),
    );
  }
  // Gone without a warning while the lease still wanted it: the same as a reclaim.
  if (lease.status === 'RUNNING' && record.interruptedAtMs === undefined)
    await markInterrupted(deps, lease, record, atMs);
  return 'bill-closed';
}

const poolOf = (instance: Pick<ComputeInstance, 'region' | 'zone' | 'instanceType' | 'mode'>): Pool => ({
  region: instance.region,
  zone: instance.zone,
  instanceType: instance.instanceType,
  mode: instance.mode,
  priceMicroUsdPerHour: 0,
  available: false,
});

/**
 * The lease loses `record` at `atMs` (warned, or found gone): once per
 * instance, the lease goes INTERRUPTED, the tenant hears LeaseInterrupted and
 * a replacement is queued for when AWS takes the instance.
 */
export async function markInterrupted(
  deps: InterruptionMarking,
  lease: LeaseView,
  record: LeaseInstance,
  atMs: number,
): Promise<InterruptionOutcome> {
  if (!(await deps.leases.stampInstance(record, 'interruptedAtMs', atMs))) return 'already-seen';
  deps.placement.unavailable.markUnavailable(
    poolOf({ ...record, region: record.region ?? deps.region }),
    atMs,
  );
  const { tenantId, leaseId } = lease;
  if (await deps.leases.transition(tenantId, leaseId, ['RUNNING'], 'INTERRUPTED', deps.now())) {
    await deps.events.publish([
      {
        type: 'LeaseInterrupted',
        tenantId,
        detail: { leaseId, instanceId: record.instanceId, zone: record.zone, warnedAtMs: atMs },
      },
    ]);
  }
  // The reclaimed instance works on (billed) until AWS takes it; the replacement starts then.
  const delayMs = Math.max(0, atMs + RECLAIM_WARNING_MS - deps.now());
  await deps.commands.send(
    { type: 'replace', tenantId, leaseId, instanceId: record.instanceId },
    { delaySeconds: Math.min(900, Math.ceil(delayMs / 1000)) },
  );
  return 'interrupted';
}

async function confirmRunning(
  deps: Pick<ControlPlane, 'leases' | 'catalog' | 'now' | 'events'>,
  lease: LeaseView,
  record: LeaseInstance,
  atMs: number,
): Promise<InterruptionOutcome> {
  if (!(await deps.leases.stampInstance(record, 'runningConfirmedAtMs', atMs))) return 'already-seen';
  // The worker recorded every GPU but died before marking the lease: EC2 says it runs.
  const open = lease.instances.filter((i) => i.meteringOpen);
  const recordedGpus = open.reduce((sum, i) => sum + deps.catalog.gpusPerInstance(i.instanceType), 0);
  if (lease.status === 'PENDING' && recordedGpus >= lease.gpus) {
    const placement = adoptedPlacement(
      open,
      `confirmed by EC2's state-change event at ${new Date(atMs).toISOString()}`,
    );
    if (
      await deps.leases.transition(lease.tenantId, lease.leaseId, ['PENDING'], 'RUNNING', deps.now(), {
        placement,
      })
    ) {
      await deps.events.publish([
        {
          type: 'LeaseRunning',
          tenantId: lease.tenantId,
          detail: {
            leaseId: lease.leaseId,
            mode: placement.mode,
            reason: placement.reason,
            gpus: lease.gpus,
            placement,
          },
        },
      ]);
    }
  }
  return 'confirmed-running';
}

/** `waiting`: a job with a deadline whose policy said wait; the lease stays INTERRUPTED for the schedule's next look. */
export type ReplaceOutcome = 'replaced' | 'waiting' | 'failed' | 'not-interrupted' | 'missing';

/**
 * The worker's side of an interruption: the GPUs of the reclaimed instance
 * are placed again where `planReclaim` says (the next spot pool, else the
 * lease's fallback), or, for a job with a deadline, where its policy says;
 * the lease is RUNNING again and the tenant hears LeaseReplaced. Instances a
 * crashed attempt launched are adopted, so a redelivered command launches
 * nothing twice.
 */
export async function replaceInterrupted(
  deps: Provisioning,
  tenantId: string,
  leaseId: string,
  instanceId: string,
  steer: Steer = noSteering,
): Promise<ReplaceOutcome> {
  const lease = await deps.leases.get(tenantId, leaseId);
  if (!lease) return 'missing';
  const reclaimed = lease.instances.find((i) => i.instanceId === instanceId);
  if (lease.status !== 'INTERRUPTED' || !reclaimed) return 'not-interrupted';

  const warnedAtMs = reclaimed.interruptedAtMs ?? deps.now();
  // The command waits for the two minutes: the warned instance goes first, so the
  // lease never holds its GPUs beside the replacement's, even if no replacement comes.
  const due = new Set([instanceId, ...overdueWarned(lease.instances, deps.now()).map((i) => i.instanceId)]);
  await retireReclaimed(
    deps,
    lease.instances.filter((i) => due.has(i.instanceId)),
  );
  const reclaimedPool = poolOf({ ...reclaimed, region: reclaimed.region ?? deps.region });
  deps.placement.unavailable.markUnavailable(reclaimedPool, warnedAtMs);
  const decision = await steer(lease, 'interruption');
  if (decision) return resumeOnDecision(deps, lease, instanceId, decision);
  const base = chooseRentalMode({
    workload: lease.workload,
    gpus: lease.gpus,
    requestedMode: lease.requestedMode,
    freeReservedGpus: 0,
  });
  const pools = await livePools(deps, {
    instanceTypes: [reclaimed.instanceType],
    regions: lease.regions,
    modes: ['spot', 'on-demand'],
    nowMs: deps.now(),
  });
  const plan = planReclaim({
    workload: lease.workload,
    instanceType: reclaimed.instanceType,
    reclaimedPool,
    warnedAtMs,
    fallback: base.fallback,
    pools,
  });
  const filled = await fillMissingGpus(deps, lease, { launchedBefore: true }, () => ({
    mode: plan.pool?.mode ?? base.fallback ?? base.mode,
    fallback: plan.pool?.mode === 'spot' ? base.fallback : null,
    reason: plan.reason,
  }));
  return finishReplacement(deps, lease, instanceId, filled, plan.reason);
}

/**
 * The deadline policy moves a running job (spot to on-demand, back, or to
 * another pool) through the replacement's own steps: the lease goes
 * INTERRUPTED (nothing was taken back, so no LeaseInterrupted and no pool
 * marked), its instances end now and their bills close, then the decision's
 * pool takes the GPUs. The old instances end before the new launch, so the
 * lease never holds more GPUs than it asked for.
 */
export async function switchPlacement(
  deps: Provisioning,
  lease: LeaseView,
  decision: StoredDecision,
): Promise<ReplaceOutcome> {
  const leaving = heldInstances(lease.instances);
  const [first] = leaving;
  if (!first) return 'not-interrupted';
  const { tenantId, leaseId } = lease;
  if (!(await deps.leases.transition(tenantId, leaseId, ['RUNNING'], 'INTERRUPTED', deps.now()))) {
    return 'not-interrupted';
  }
  await retireReclaimed(deps, leaving);
  return resumeOnDecision(deps, lease, first.instanceId, decision);
}

/** The GPUs of an INTERRUPTED lease placed where the decision says, or left waiting. */
async function resumeOnDecision(
  deps: Provisioning,
  lease: LeaseView,
  replacedInstanceId: string,
  decision: StoredDecision,
): Promise<ReplaceOutcome> {
  const steered = steeredLaunch(decision);
  if (!steered) return 'waiting';
  // Read again: the instances just retired hold no GPUs any more.
  const current = (await deps.leases.get(lease.tenantId, lease.leaseId)) ?? lease;
  const filled = await fillMissingGpus(deps, current, { launchedBefore: true }, () => steered);
  return finishReplacement(deps, current, replacedInstanceId, filled, steered.reason);
}

/** The lease RUNNING again on what was filled (LeaseReplaced), or FAILED when nothing could be. */
async function finishReplacement(
  deps: Provisioning,
  lease: LeaseView,
  replacedInstanceId: string,
  filled: Awaited<ReturnType<typeof fillMissingGpus>>,
  reason: string,
): Promise<ReplaceOutcome> {
  if ('failure' in filled) return failLease(deps, lease, 'INTERRUPTED', `${reason}; ${filled.failure}`);
  const { tenantId, leaseId } = lease;
  const { placement } = filled;
  if (
    !(await deps.leases.transition(
      tenantId,
      leaseId,
      ['INTERRUPTED'],
      'RUNNING',
      deps.now(),
      placed(placement),
    ))
  ) {
    return 'not-interrupted';
  }
  await deps.events.publish([
    { type: 'LeaseReplaced', tenantId, detail: { leaseId, replacedInstanceId, placement } },
  ]);
  return 'replaced';
}

/** The lease's warned instances still billed (their two minutes are up), or those a switch leaves, end now, each bill closed there. */
async function retireReclaimed(deps: Provisioning, warned: readonly LeaseInstance[]): Promise<void> {
  const stamped = await endWarnedInstances(
    deps,
    warned.filter((i) => i.meteringOpen),
  );
  for (const record of stamped) {
    if (!record.meteringOpen || record.endedAtMs === undefined) continue;
    await closeInstanceBill(
      deps,
      record,
      record.endedAtMs,
      async () => (await deps.leases.instancesByRef([record]))[0],
    );
  }
}
