import { admissionPass, type WaitingLease } from '../../domain/admission/admission-pass';
import { type Capacity, instanceFamily, type VcpuCatalog, vcpusOf } from '../../domain/admission/capacity';
import { DEFAULT_LEASE_DURATION_MS } from '../../domain/admission/duration-history';
import { splitTimedOut } from '../../domain/admission/queue-timeout';
import type { Quota } from '../../domain/admission/quota';
import type { LaunchCandidate, TenantUsage } from '../../domain/admission/tenant-ledger';
import { type EstimateBasis, estimateWaits, type RunningLease } from '../../domain/admission/wait-estimate';
import type { Workload } from '../../domain/lease';
import { MinHeap } from '../../domain/min-heap';
import { HistoryWindow } from './history-window';

/** One lease of a demand trace, as the admission replay sees it. */
export interface ReplayLease {
  readonly id: string;
  readonly tenantId: string;
  readonly workload: Workload;
  readonly gpus: number;
  /** When it asks for GPUs. */
  readonly arrivalMs: number;
  /** How long it runs once started: the replay never shows it to the estimate. */
  readonly durationMs: number;
  /** A runtime the tenant declared up front, if any (an upper bound the estimate may use). */
  readonly maxRuntimeMinutes?: number | undefined;
}

export interface ReplaySetup {
  readonly leases: readonly ReplayLease[];
  readonly quotas: Readonly<Record<string, Quota>>;
  readonly defaultQuota: Quota;
  /** The fleet's limits, nothing running yet. */
  readonly capacity: Capacity;
  readonly catalog: VcpuCatalog;
  /** Ways to start a lease, preferred first. */
  readonly candidatesFor: (lease: ReplayLease) => LaunchCandidate[];
  readonly maxWaitMinutes: number;
}

export interface WaitPrediction {
  readonly estimatedStartAtMs: number | null;
  readonly basis: EstimateBasis;
  /** Queue position × the mean duration of the leases completed so far. */
  readonly naiveStartAtMs: number;
}

export interface LeaseOutcome {
  readonly lease: ReplayLease;
  /** Null: it waited its maxWaitMinutes and failed with QUEUE_TIMEOUT. */
  readonly startMs: number | null;
  /** Set for the leases the first pass after their arrival left queued. */
  readonly prediction?: WaitPrediction | undefined;
}

/** What each tenant runs and waits for during [fromMs, toMs). */
export interface Segment {
  readonly fromMs: number;
  readonly toMs: number;
  readonly runningGpus: Readonly<Record<string, number>>;
  readonly waitingGpus: Readonly<Record<string, number>>;
}

export interface ReplayResult {
  readonly outcomes: readonly LeaseOutcome[];
  readonly segments: readonly Segment[];
}

interface Started {
  readonly running: RunningLease;
  readonly endMs: number;
  readonly lease: ReplayLease;
}

/**
 * Replays leases through the real admission pass, the way the control plane
 * runs it: a pass at every instant something arrives or ends (releases first,
 * then arrivals, then queue timeouts). A lease the pass leaves queued on
 * arrival gets the wait estimate right then, from what is known at that
 * instant only (running leases, the queue, the history of leases completed
 * so far), and the naive estimate beside it.
 */
export function replayAdmission(setup: ReplaySetup): ReplayResult {
  const arrivals = [...setup.leases].sort((a, b) => a.arrivalMs - b.arrivalMs || (a.id < b.id ? -1 : 1));
  const releases = new MinHeap<Started>((a, b) => a.endMs < b.endMs);
  const usage: Record<string, TenantUsage> = {};
  const usedVcpus = new Map<string, number>();
  const running = new Map<string, Started>();
  const history = new HistoryWindow();
  const outcomes = new Map<string, LeaseOutcome>();
  const byId = new Map(arrivals.map((lease) => [lease.id, lease]));
  const segments: Segment[] = [];
  let queue: WaitingLease[] = [];
  let next = 0;

  const poolKey = (c: LaunchCandidate) => `${c.region}#${instanceFamily(c.instanceType)}#${c.mode}`;
  const change = (tenantId: string, gpus: number, launch: LaunchCandidate, sign: 1 | -1) => {
    const use = usage[tenantId] ?? { gpus: 0, hourlyMicroUsd: 0, gpusByMode: {} };
    usage[tenantId] = {
      gpus: use.gpus + sign * gpus,
      hourlyMicroUsd: use.hourlyMicroUsd + sign * launch.hourlyMicroUsd,
      gpusByMode: { ...use.gpusByMode, [launch.mode]: (use.gpusByMode[launch.mode] ?? 0) + sign * gpus },
    };
    const key = poolKey(launch);
    usedVcpus.set(
      key,
      (usedVcpus.get(key) ?? 0) + sign * launch.instances * vcpusOf(setup.catalog, launch.instanceType),
    );
  };
  const capacityNow = (): Capacity => ({
    vcpuQuotas: setup.capacity.vcpuQuotas.map((q) => ({
      ...q,
      usedVcpus: q.usedVcpus + (usedVcpus.get(`${q.region}#${q.family}#${q.market}`) ?? 0),
    })),
    reservedSlots: setup.capacity.reservedSlots,
  });
  const passInput = (nowMs: number, waiting: readonly WaitingLease[]) => ({
    nowMs,
    queue: waiting,
    usage,
    quotas: setup.quotas,
    defaultQuota: setup.defaultQuota,
    capacity: capacityNow(),
    catalog: setup.catalog,
  });

  for (;;) {
    const nowMs = Math.min(arrivals[next]?.arrivalMs ?? Infinity, releases.peek()?.endMs ?? Infinity);
    if (nowMs === Infinity) break;
    for (let done = releases.peek(); done && done.endMs === nowMs; done = releases.peek()) {
      releases.pop();
      running.delete(done.lease.id);
      change(done.lease.tenantId, done.lease.gpus, done.running.launch, -1);
      history.add(done.lease.tenantId, done.lease.workload, done.lease.durationMs);
    }
    const arrived = new Set<string>();
    for (; next < arrivals.length && (arrivals[next] as ReplayLease).arrivalMs === nowMs; next++) {
      const lease = arrivals[next] as ReplayLease;
      arrived.add(lease.id);
      queue.push({
        leaseId: lease.id,
        tenantId: lease.tenantId,
        workload: lease.workload,
        gpus: lease.gpus,
        candidates: setup.candidatesFor(lease),
        priority: 500,
        queuedAtMs: lease.arrivalMs,
        maxWaitMinutes: setup.maxWaitMinutes,
        maxRuntimeMinutes: lease.maxRuntimeMinutes,
      });
    }
    const { waiting, timedOut } = splitTimedOut(queue, nowMs);
    for (const lease of timedOut) outcomes.set(lease.leaseId, { ...outcomeOf(lease.leaseId), startMs: null });
    const pass = admissionPass(passInput(nowMs, waiting));
    for (const { lease, launch } of pass.admitted) {
      const replayed = byId.get(lease.leaseId) as ReplayLease;
      const started: Started = {
        lease: replayed,
        endMs: nowMs + replayed.durationMs,
        running: { ...lease, launch, startedAtMs: nowMs },
      };
      running.set(replayed.id, started);
      releases.push(started);
      change(lease.tenantId, lease.gpus, launch, 1);
      outcomes.set(lease.leaseId, { ...outcomeOf(lease.leaseId), startMs: nowMs });
    }
    queue = pass.queued.map((queued) => queued.lease);
    const newlyQueued = pass.queued.filter((queued) => arrived.has(queued.lease.leaseId));
    if (newlyQueued.length > 0) {
      const estimates = estimateWaits({
        ...passInput(nowMs, queue),
        running: [...running.values()].map((started) => started.running),
        history: history.samples(),
        leaseIds: new Set(newlyQueued.map((queued) => queued.lease.leaseId)),
      });
      const meanMs = history.meanMs() ?? DEFAULT_LEASE_DURATION_MS;
      const positions = new Map(newlyQueued.map((queued) => [queued.lease.leaseId, queued.position]));
      for (const estimate of estimates) {
        outcomes.set(estimate.leaseId, {
          lease: byId.get(estimate.leaseId) as ReplayLease,
          startMs: null,
          prediction: {
            estimatedStartAtMs: estimate.estimatedStartAtMs,
            basis: estimate.estimateBasis,
            naiveStartAtMs: nowMs + (positions.get(estimate.leaseId) ?? 0) * meanMs,
          },
        });
      }
    }
    const upcoming = Math.min(arrivals[next]?.arrivalMs ?? Infinity, releases.peek()?.endMs ?? Infinity);
    if (upcoming !== Infinity) segments.push(segmentOf(nowMs, upcoming, running, queue));
  }
  return { outcomes: arrivals.map((lease) => outcomes.get(lease.id) ?? { lease, startMs: null }), segments };

  function outcomeOf(leaseId: string): LeaseOutcome {
    return outcomes.get(leaseId) ?? { lease: byId.get(leaseId) as ReplayLease, startMs: null };
  }
}

function segmentOf(
  fromMs: number,
  toMs: number,
  running: ReadonlyMap<string, Started>,
  queue: readonly WaitingLease[],
): Segment {
  const runningGpus: Record<string, number> = {};
  for (const { lease } of running.values())
    runningGpus[lease.tenantId] = (runningGpus[lease.tenantId] ?? 0) + lease.gpus;
  const waitingGpus: Record<string, number> = {};
  for (const lease of queue) waitingGpus[lease.tenantId] = (waitingGpus[lease.tenantId] ?? 0) + lease.gpus;
  return { fromMs, toMs, runningGpus, waitingGpus };
}
