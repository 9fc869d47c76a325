import { mapWithConcurrency } from '../../concurrency';
import type { WaitingLease } from '../../domain/admission/admission-pass';
import { type AdmissionClaim, capacityOfPools } from '../../domain/admission/claims';
import { QUEUE_TIMEOUT, queueDeadlineMs, splitTimedOut } from '../../domain/admission/queue-timeout';
import { DEFAULT_MAX_WAIT_MINUTES, DEFAULT_PRIORITY, type Quota } from '../../domain/admission/quota';
import { estimateWaits } from '../../domain/admission/wait-estimate';
import type { Lease, LeaseQueueState } from '../../domain/lease';
import { FAILED_POOL_BACKOFF_MS } from '../../domain/placement';
import type { AdmissionStore } from '../../ports/admission-store';
import type { LeaseExpiryScheduler } from '../../ports/lease-expiry';
import type { ControlPlane } from '../dependencies';
import { failTaskWithLease } from '../tasks';
import {
  type AdmissionRun,
  type AdmissionScope,
  decideAdmissions,
  quotasOf,
  runAdmissionPass,
  usageOf,
} from './admission-pass';
import { gateReadsOf } from './gate-reads';
import { recordHeldDuration } from './lease-durations';

/**
 * What a pass over the queue reaches: admitting (hand-over to provisioning),
 * timing out and placing the waiting leases. The scheduled admission
 * function's whole wiring.
 */
export type AdmissionPassControl = Pick<
  ControlPlane,
  'leases' | 'commands' | 'events' | 'catalog' | 'now'
> & {
  readonly admission: AdmissionStore;
  readonly defaultQuota: Quota;
  readonly expiry: Pick<LeaseExpiryScheduler, 'cancel'>;
};

/** What admitting, queuing and timing out leases reaches; joining the queue also needs where a lease may run. */
export type AdmissionControl = AdmissionPassControl & Pick<ControlPlane, 'placement' | 'region'>;

/**
 * The lease as the queue stores it. Its one launch candidate is its instance
 * type in its first allowed region at the on-demand price, in the mode it
 * asked for (on-demand when it left the choice to gpurent): what is known
 * before placement, and an upper bound of what spot or reserved would cost,
 * so the hourly quota is never exceeded by a lease placed more cheaply.
 */
export function waitingLeaseOf(
  deps: Pick<AdmissionControl, 'catalog' | 'placement' | 'region' | 'now'>,
  lease: Lease,
) {
  const region = lease.regions?.[0] ?? deps.placement.regions[0] ?? deps.region;
  const instances = Math.max(1, Math.ceil(lease.gpus / deps.catalog.gpusPerInstance(lease.instanceType)));
  const waiting: WaitingLease = {
    leaseId: lease.leaseId,
    tenantId: lease.tenantId,
    workload: lease.workload,
    gpus: lease.gpus,
    candidates: [
      {
        region,
        instanceType: lease.instanceType,
        instances,
        mode: lease.requestedMode ?? 'on-demand',
        hourlyMicroUsd: instances * deps.catalog.onDemandMicroPerHour(lease.instanceType, region),
      },
    ],
    priority: lease.priority ?? DEFAULT_PRIORITY,
    queuedAtMs: deps.now(),
    maxWaitMinutes: lease.maxWaitMinutes ?? DEFAULT_MAX_WAIT_MINUTES,
    maxRuntimeMinutes: lease.task?.spec.maxRuntimeMinutes,
    expiresAtMs: lease.expiresAtMs,
  };
  return waiting;
}

/**
 * One admission pass and what follows from it: leases past their
 * maxWaitMinutes FAIL with QUEUE_TIMEOUT, admitted QUEUED leases go to
 * provisioning (each once: the store admits it once, and only the one
 * QUEUED → PENDING transition sends its start command), and every lease
 * still QUEUED gets its reason, position and wait estimate. The queue states
 * by lease id are returned.
 */
export async function admitQueued(
  deps: AdmissionPassControl,
  scope: AdmissionScope = 'all',
): Promise<{ run: AdmissionRun; states: ReadonlyMap<string, LeaseQueueState> }> {
  const run = await runAdmissionPass(deps, scope);
  await mapWithConcurrency(run.timedOut, LEASES_IN_FLIGHT, (lease) => failTimedOut(deps, lease));
  if (scope !== 'all') {
    // A gate's own lease is PENDING, its provisioner carries on: only a wider pass hands leases over,
    // and only a wider pass writes the places of the others (a gate per lease would write the whole
    // queue per lease). The gate needs its own lease's place, and only when it waits.
    const waits = run.queued.some(({ lease }) => lease.leaseId === scope.only);
    const states = waits
      ? await queueStates(deps, run, scope.only, gateReadsOf(deps.admission, deps.now))
      : new Map();
    return { run, states: new Map([...states].map(([leaseId, state]) => [leaseId, state.queue])) };
  }
  await mapWithConcurrency(run.admitted, LEASES_IN_FLIGHT, (claim) => handOver(deps, claim));
  // Nothing left waiting (the common case): no positions or estimates to read the state again for.
  const states: QueueStates = run.queued.length === 0 ? new Map() : await queueStates(deps, run);
  // One write per waiting lease, each a round trip to DynamoDB: side by side, a long queue's pass is not their sum.
  await mapWithConcurrency([...states], LEASES_IN_FLIGHT, ([leaseId, { tenantId, queue }]) =>
    deps.leases.transition(tenantId, leaseId, ['QUEUED'], 'QUEUED', deps.now(), { queue }),
  );
  return { run, states: new Map([...states].map(([leaseId, state]) => [leaseId, state.queue])) };
}

/** Leases a pass times out, hands over, writes the place of, or sends a wait's end for, at once. */
export const LEASES_IN_FLIGHT = 16;

type QueueStates = Map<string, { tenantId: string; queue: LeaseQueueState }>;

/**
 * Where each waiting lease stands after the pass: the pass's order over the
 * stored state, and the estimate of `estimateWaits` from the admitted
 * leases' known ends (expiry, declared runtime), else the recorded lease
 * durations of their tenant and workload (`recordHeldDuration`), else
 * DEFAULT_LEASE_DURATION_MS after the start (basis `default`). When the
 * pass's last round admitted nothing, what it read and decided is the state
 * still, and only the running leases and the durations are read.
 */
async function queueStates(
  deps: AdmissionPassControl,
  run: AdmissionRun,
  /** The one lease whose place to give (default: every lease the pass left waiting). */
  only?: string,
  /** Where running leases and durations are read: a gate reads its container's shared reads. */
  reads: Pick<AdmissionStore, 'running' | 'durations'> = deps.admission,
): Promise<QueueStates> {
  const nowMs = deps.now();
  const [decided, running, history] = await Promise.all([
    run.current ? run : decideAgain(deps, nowMs),
    reads.running(),
    reads.durations(),
  ]);
  const { snapshot, queued } = decided;
  const { waiting } = splitTimedOut(snapshot.queue, nowMs);
  const estimates = estimateWaits({
    nowMs,
    queue: waiting.filter((lease) => (lease.refused?.atMs ?? 0) <= nowMs),
    usage: usageOf(snapshot),
    quotas: quotasOf(snapshot),
    defaultQuota: deps.defaultQuota,
    capacity: capacityOfPools(snapshot.pools),
    catalog: deps.catalog,
    running,
    history,
  });
  const byLease = new Map(estimates.map((estimate) => [estimate.leaseId, estimate]));
  const placed = only === undefined ? queued : queued.filter(({ lease }) => lease.leaseId === only);
  return new Map(
    placed.map(({ lease, reason, position }) => {
      const estimate = byLease.get(lease.leaseId);
      const waitEndsAtMs = queueDeadlineMs(lease);
      const queue: LeaseQueueState = estimate
        ? {
            reason,
            position,
            estimatedStartAtMs: estimate.estimatedStartAtMs,
            estimateBasis: estimate.estimateBasis,
            waitEndsAtMs,
          }
        : {
            reason,
            position,
            estimatedStartAtMs: lease.refused?.atMs ?? null,
            estimateBasis: 'after-refusal',
            waitEndsAtMs,
          };
      return [lease.leaseId, { tenantId: lease.tenantId, queue }];
    }),
  );
}

/** The state again, and the pass's order over it: the last round's admissions moved it. */
async function decideAgain(deps: AdmissionPassControl, nowMs: number) {
  const snapshot = await deps.admission.snapshot();
  const { waiting } = splitTimedOut(snapshot.queue, nowMs);
  return { snapshot, queued: decideAdmissions(deps, snapshot, waiting, nowMs).queued };
}

/** QUEUED → PENDING and its start command; false when the lease was not QUEUED (its own worker carries on). */
export async function handOver(
  deps: AdmissionPassControl,
  claim: Pick<AdmissionClaim, 'tenantId' | 'leaseId' | 'queuedAtMs' | 'launch'>,
): Promise<boolean> {
  const { tenantId, leaseId, queuedAtMs } = claim;
  const lease = await deps.leases.get(tenantId, leaseId);
  if (lease?.status !== 'QUEUED') return false;
  const nowMs = deps.now();
  const queueEnd = { state: 'admitted', queuedAtMs, region: claim.launch.region } as const;
  if (!(await deps.leases.transition(tenantId, leaseId, ['QUEUED'], 'PENDING', nowMs, { queueEnd }))) {
    return false;
  }
  await deps.events.publish([
    { type: 'LeaseAdmitted', tenantId, detail: { leaseId, waitedMs: nowMs - queuedAtMs } },
  ]);
  await deps.commands.send({ type: 'start', tenantId, leaseId });
  return true;
}

/**
 * Waited its maxWaitMinutes: FAILED with QUEUE_TIMEOUT. It never launched, so
 * nothing ran or billed. False when the lease no longer waited (it failed or
 * ended already).
 */
export async function failTimedOut(deps: AdmissionPassControl, lease: WaitingLease): Promise<boolean> {
  const { tenantId, leaseId, maxWaitMinutes, queuedAtMs } = lease;
  const reason = `${QUEUE_TIMEOUT}: not admitted within maxWaitMinutes (${maxWaitMinutes}); it never ran`;
  if (
    !(await deps.leases.transition(tenantId, leaseId, ['QUEUED', 'PENDING'], 'FAILED', deps.now(), {
      failureReason: reason,
      queueEnd: { state: 'timed-out', queuedAtMs, region: lease.candidates[0]?.region },
    }))
  )
    return false;
  if (lease.expiresAtMs !== undefined) await deps.expiry.cancel(leaseId);
  await failTaskWithLease(deps, tenantId, leaseId);
  await deps.events.publish([
    { type: 'LeaseQueueTimedOut', tenantId, detail: { leaseId, maxWaitMinutes } },
    { type: 'LeaseFailed', tenantId, detail: { leaseId, reason } },
  ]);
  return true;
}

/**
 * `admitted-on-joining`: this call put the lease in the queue and admitted it,
 * so no launch can have been made for it before (nothing launches a lease
 * admission never knew): its provisioner need not look for instances an
 * earlier attempt launched.
 */
export type AdmissionOutcome = 'admitted' | 'admitted-on-joining' | 'queued' | 'ended';

/**
 * The provisioner's gate: a lease admission has not seen joins the queue and
 * a pass runs; an admitted lease goes on to launch. One that does not fit is
 * QUEUED with its place (LeaseQueued). A pass that ran meanwhile may have
 * admitted it while it was still PENDING, when no hand-over could take it:
 * it is handed over here.
 */
export async function admitOrQueue(deps: AdmissionControl, lease: Lease): Promise<AdmissionOutcome> {
  const { tenantId, leaseId } = lease;
  const before = await deps.admission.status(leaseId);
  if (before === 'ADMITTED') return 'admitted';
  const waiting = waitingLeaseOf(deps, lease);
  const joined = before === undefined && (await deps.admission.enqueue(waiting));
  const { run, states } = await admitQueued(
    deps,
    joined ? { only: leaseId, joined: waiting } : { only: leaseId },
  );
  if (run.admitted.some((claim) => claim.leaseId === leaseId))
    return joined ? 'admitted-on-joining' : 'admitted';
  const status = await deps.admission.status(leaseId);
  if (status === 'ADMITTED') return 'admitted';
  const queue = states.get(leaseId);
  if (status !== 'QUEUED' || !queue) return 'ended';
  if (!(await deps.leases.transition(tenantId, leaseId, ['PENDING'], 'QUEUED', deps.now(), { queue }))) {
    return 'ended';
  }
  await deps.events.publish([{ type: 'LeaseQueued', tenantId, detail: { leaseId, ...queue } }]);
  const claim = await deps.admission.claim(leaseId);
  if (claim) await handOver(deps, claim);
  return 'queued';
}

/**
 * A lease ended (released or failed): what admission gave it is given back, or
 * it leaves the queue, and a pass runs, as room may have opened.
 */
export async function freeAdmission(deps: AdmissionControl, leaseId: string): Promise<void> {
  if ((await deps.admission.status(leaseId)) === undefined) return;
  await recordHeldDuration(deps, await deps.admission.release(leaseId));
  await admitQueued(deps);
}

/** How long a lease EC2 refused sits out of passes: the refused pools' back-off. */
const REFUSAL_BACKOFF_MS = FAILED_POOL_BACKOFF_MS;

/**
 * The place of a refused lease the pass right after did not list: on
 * DynamoDB the queue index the pass reads may not show the requeue yet.
 * Behind the listed ones, tried again after the back-off, and waiting until
 * its wait ends, which only its admission entry knows (when it first joined).
 */
async function unlistedRefusal(
  deps: AdmissionControl,
  leaseId: string,
  reason: NonNullable<WaitingLease['refused']>['reason'],
  atMs: number,
  position: number,
): Promise<LeaseQueueState> {
  const entry = await deps.admission.entry(leaseId);
  return {
    reason,
    position,
    estimatedStartAtMs: atMs,
    estimateBasis: 'after-refusal',
    waitEndsAtMs: entry && queueDeadlineMs(entry.lease),
  };
}

/**
 * EC2 refused an admitted lease in every allowed pool: it gives back what it
 * held and waits again (QUEUED, LeaseQueued) instead of failing. It keeps
 * when it first joined the queue: its maxWaitMinutes is one wait, not one per refusal.
 */
export async function queueRefused(
  deps: AdmissionControl,
  lease: Lease,
  reason: NonNullable<WaitingLease['refused']>['reason'],
): Promise<boolean> {
  const { tenantId, leaseId } = lease;
  const atMs = deps.now() + REFUSAL_BACKOFF_MS;
  if (!(await deps.admission.requeue(leaseId, { atMs, reason }))) return false;
  const { states } = await admitQueued(deps);
  const queue = states.get(leaseId) ?? (await unlistedRefusal(deps, leaseId, reason, atMs, states.size + 1));
  if (!(await deps.leases.transition(tenantId, leaseId, ['PENDING'], 'QUEUED', deps.now(), { queue }))) {
    return false;
  }
  await deps.events.publish([{ type: 'LeaseQueued', tenantId, detail: { leaseId, ...queue } }]);
  return true;
}
