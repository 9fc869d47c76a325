import { costOfRun } from '../domain/billing';
import type { RentalMode } from '../domain/lease';
import type { MicroUsd } from '../domain/money';
import { choosePool, type Pool } from '../domain/placement';
import { chooseRentalMode, type ModeDecision } from '../domain/rental-mode';
import { assignReservedGpus, commitmentCost, recommendReservedGpus } from '../domain/reservations';
import { planReclaim, planReturnToSpot, RECLAIM_WARNING_MS, RESTART_MS } from '../domain/spot-reclaim';
import { DemandRecorder } from './demand-history';
import type { DemandTrace, TraceLease } from './demand-trace';
import { EventQueue } from './event-queue';
import { onDemandPools, REPLAY_INSTANCE_TYPE, type ReplayPrices, reservedPool } from './model';
import type { SpotMarket } from './spot-market';
import { termStartsOf } from './terms';
import { MS_PER_HOUR } from './units';

export interface TermDecision {
  readonly termStartMs: number;
  readonly gpus: number;
  readonly reason: string;
}

/** What the product's policies did with the trace, and what it cost. */
export interface PolicyOutcome {
  readonly costMicroUsd: Readonly<Record<RentalMode, MicroUsd>>;
  /** Spot reclaims that forced a lease to restart elsewhere (a lease finishing within the warning is not one). */
  readonly interruptions: number;
  /** Inference leases that ever ran on spot. */
  readonly inferenceOnSpot: number;
  /** Spot launches that found no spot pool with capacity and took the fallback instead. */
  readonly spotFallbacks: number;
  /** Fallen-back leases moved back to spot once capacity returned. */
  readonly returnsToSpot: number;
  readonly reservedTerms: readonly TermDecision[];
  /** GPU-hours reserved GPUs spent carrying a lease; the rest of the commitment sat idle. */
  readonly reservedBusyGpuHours: number;
}

export interface SimulationInput {
  readonly trace: DemandTrace;
  readonly market: SpotMarket;
  readonly prices: ReplayPrices;
  /** Past demand the reservation policy looks at; the policy's own default when absent. */
  readonly reservationLookbackMs?: number | undefined;
}

/** A lease the policies found nowhere to put: the replay cannot go on without inventing capacity. */
export class UnplaceableLeaseError extends Error {
  constructor(
    readonly leaseId: string,
    readonly atMs: number,
    readonly reason: string,
  ) {
    super(`Lease ${leaseId} has nowhere to run at ${new Date(atMs).toISOString()}: ${reason}`);
    this.name = 'UnplaceableLeaseError';
  }
}

interface LeaseState {
  readonly lease: TraceLease;
  readonly decision: ModeDecision;
  /** When the work is done: the trace's end pushed back by every restart so far. */
  endMs: number;
  readonly runs: Set<Run>;
}

/** Instances of one lease launched into one pool at one time; each is one GPU and is billed on its own. */
interface Run {
  readonly state: LeaseState;
  readonly pool: Pool;
  readonly launchedAtMs: number;
  gpus: number;
}

type ReplayEvent =
  | { readonly kind: 'end'; readonly state: LeaseState }
  | { readonly kind: 'term'; readonly termStartMs: number }
  | { readonly kind: 'warning'; readonly run: Run }
  | { readonly kind: 'relaunch'; readonly run: Run; readonly pool: Pool }
  | { readonly kind: 'spot-check' }
  | { readonly kind: 'start'; readonly lease: TraceLease };

/** At one instant: free capacity first, then the term, then reclaims and returns to spot, then new leases. */
const RANK: Readonly<Record<ReplayEvent['kind'], number>> = {
  end: 0,
  term: 1,
  warning: 2,
  relaunch: 3,
  'spot-check': 4,
  start: 5,
};

/**
 * Replays the trace in simulated time through the control plane's own
 * policies: chooseRentalMode for every lease, choosePool for every launch,
 * recommendReservedGpus at every term and assignReservedGpus after every
 * change, planReclaim at every spot reclaim, planReturnToSpot for leases that
 * fell back, and costOfRun for every instance. Event-driven: it wakes up when a
 * lease starts or ends, a term begins, a zone in use loses its spot capacity,
 * and once a spot tick while a lease waits on its fallback for spot to return.
 */
export function simulatePolicy(input: SimulationInput): PolicyOutcome {
  return new PolicyReplay(input).run();
}

class PolicyReplay {
  private readonly queue = new EventQueue<ReplayEvent>();
  private readonly cost: Record<RentalMode, MicroUsd> = { 'on-demand': 0, reserved: 0, spot: 0 };
  private readonly onDemand: readonly Pool[];
  private readonly demand: DemandRecorder;
  /** Zones whose spot capacity last failed us, and when: the placement back-off reads it. */
  private readonly spotFailures = new Map<string, number>();
  /** Runs off spot (reserved or on-demand): the ones the reserved assignment shuffles. */
  private readonly steadyRuns = new Set<Run>();
  private readonly inferenceOnSpot = new Set<string>();
  private readonly terms: TermDecision[] = [];
  private reservedGpus = 0;
  private reservedInUse = 0;
  private reservedBusyGpuMs = 0;
  private interruptions = 0;
  private spotFallbacks = 0;
  private returnsToSpot = 0;
  private spotCheckPending = false;
  /** Whether the runs off spot or the commitment changed since the last reassignment. */
  private steadyChanged = false;

  constructor(private readonly input: SimulationInput) {
    this.onDemand = onDemandPools(input.market.traces.zones);
    this.demand = new DemandRecorder(input.trace.originMs);
  }

  run(): PolicyOutcome {
    for (const termStartMs of termStartsOf(this.input.trace)) {
      this.queue.push(termStartMs, RANK.term, { kind: 'term', termStartMs });
    }
    for (const lease of this.input.trace.leases) {
      this.queue.push(lease.startMs, RANK.start, { kind: 'start', lease });
    }
    for (let next = this.queue.pop(); next; next = this.queue.pop()) {
      this.handle(next.event, next.atMs);
      this.reassignReserved(next.atMs);
      this.scheduleSpotCheck(next.atMs);
    }
    return {
      costMicroUsd: { ...this.cost },
      interruptions: this.interruptions,
      inferenceOnSpot: this.inferenceOnSpot.size,
      spotFallbacks: this.spotFallbacks,
      returnsToSpot: this.returnsToSpot,
      reservedTerms: this.terms,
      reservedBusyGpuHours: this.reservedBusyGpuMs / MS_PER_HOUR,
    };
  }

  private handle(event: ReplayEvent, atMs: number): void {
    switch (event.kind) {
      case 'start':
        this.admit(event.lease, atMs);
        return;
      case 'term':
        this.commit(event.termStartMs);
        return;
      case 'end':
        // A restart since this end was scheduled moved the end later.
        if (event.state.endMs !== atMs) return;
        for (const run of [...event.state.runs]) this.close(run, run.gpus, atMs);
        return;
      case 'warning':
        if (event.run.state.runs.has(event.run)) this.reclaim(event.run, atMs);
        return;
      case 'relaunch': {
        const { run, pool } = event;
        const { gpus } = run;
        this.close(run, gpus, atMs);
        this.launch(run.state, pool.mode, atMs, gpus, pool);
        return;
      }
      case 'spot-check':
        this.spotCheckPending = false;
        this.returnToSpot(atMs);
        return;
    }
  }

  private admit(lease: TraceLease, atMs: number): void {
    const decision = chooseRentalMode({
      workload: lease.workload,
      gpus: lease.gpus,
      freeReservedGpus: this.reservedGpus - this.reservedInUse,
    });
    const state: LeaseState = { lease, decision, endMs: lease.endMs, runs: new Set() };
    this.queue.push(state.endMs, RANK.end, { kind: 'end', state });
    this.launch(state, decision.mode, atMs, lease.gpus);
  }

  /** The term's commitment is paid in full up front; reassignReserved then fills or trims it. */
  private commit(termStartMs: number): void {
    const { prices } = this.input;
    const decision = recommendReservedGpus({
      history: this.demand.historyUntil(termStartMs),
      termStartMs,
      lookbackMs: this.input.reservationLookbackMs,
      reservedMicroUsdPerHour: prices.reservedMicroUsdPerHour,
      onDemandMicroUsdPerHour: prices.onDemandMicroUsdPerHour,
    });
    this.reservedGpus = decision.gpus;
    this.steadyChanged = true;
    this.cost.reserved += commitmentCost(decision.gpus, prices.reservedMicroUsdPerHour);
    this.terms.push({ termStartMs, gpus: decision.gpus, reason: decision.reason });
  }

  /**
   * Brings the instances off spot in line with assignReservedGpus: instances
   * leaving reserved go on running on-demand and the ones joining it stop
   * paying on-demand, with no restart either way (only the billing changes).
   */
  private reassignReserved(atMs: number): void {
    if (!this.steadyChanged || (this.reservedGpus === 0 && this.reservedInUse === 0)) return;
    const leases = new Set<LeaseState>();
    for (const run of this.steadyRuns) leases.add(run.state);
    const entries = [...leases].map((state) => {
      const runs = [...state.runs];
      return {
        state,
        reserved: runs.filter((run) => run.pool.mode === 'reserved'),
        onDemand: runs.filter((run) => run.pool.mode === 'on-demand'),
      };
    });
    const count = (runs: readonly Run[]) => runs.reduce((sum, run) => sum + run.gpus, 0);
    const target = assignReservedGpus(
      this.reservedGpus,
      entries.map(({ state, reserved, onDemand }) => ({
        leaseId: state.lease.id,
        gpus: count(reserved) + count(onDemand),
        startedAtMs: state.lease.startMs,
        interruptible: state.decision.mode === 'spot',
      })),
    );
    // Moves off reserved first, so the moves onto it find the room.
    for (const { state, reserved } of entries) {
      this.move(reserved, count(reserved) - (target.get(state.lease.id) ?? 0), 'on-demand', atMs);
    }
    for (const { state, reserved, onDemand } of entries) {
      this.move(onDemand, (target.get(state.lease.id) ?? 0) - count(reserved), 'reserved', atMs);
    }
    // The moves above changed the runs, but into the assignment itself: nothing more to do.
    this.steadyChanged = false;
  }

  /** Moves `gpus` instances out of `runs` (youngest first) into `mode`. */
  private move(runs: readonly Run[], gpus: number, mode: RentalMode, atMs: number): void {
    let left = gpus;
    for (const run of [...runs].sort((a, b) => b.launchedAtMs - a.launchedAtMs)) {
      if (left <= 0) return;
      const moved = Math.min(left, run.gpus);
      this.close(run, moved, atMs);
      this.launch(run.state, mode, atMs, moved);
      left -= moved;
    }
  }

  /**
   * A zone in use lost its spot capacity: the warning. A lease that finishes
   * within the two minutes just ends; any other resumes where planReclaim says,
   * once AWS has taken the old instances back.
   */
  private reclaim(run: Run, warnedAtMs: number): void {
    const { state } = run;
    if (state.endMs <= warnedAtMs + RECLAIM_WARNING_MS) return;
    const plan = planReclaim({
      workload: state.lease.workload,
      instanceType: REPLAY_INSTANCE_TYPE,
      reclaimedPool: run.pool,
      warnedAtMs,
      fallback: state.decision.fallback,
      pools: this.pools(warnedAtMs, run.gpus),
    });
    this.spotFailures.set(plan.failedPool.zone, warnedAtMs);
    if (plan.pool === null) throw new UnplaceableLeaseError(state.lease.id, warnedAtMs, plan.reason);
    if (plan.pool.mode !== 'spot') this.spotFallbacks += 1;
    this.interruptions += 1;
    this.delayEnd(state, plan.restartMs);
    this.queue.push(plan.relaunchAtMs, RANK.relaunch, { kind: 'relaunch', run, pool: plan.pool });
  }

  /** While leases that wanted spot run on-demand, look again at the next spot tick. */
  private scheduleSpotCheck(atMs: number): void {
    if (this.spotCheckPending || this.fallenBack().length === 0) return;
    const { market } = this.input;
    this.queue.push(market.tickStartMs(market.tickAt(atMs) + 1), RANK['spot-check'], { kind: 'spot-check' });
    this.spotCheckPending = true;
  }

  private fallenBack(): Run[] {
    return [...this.steadyRuns].filter(
      (run) => run.pool.mode === 'on-demand' && run.state.decision.mode === 'spot',
    );
  }

  private returnToSpot(atMs: number): void {
    for (const run of this.fallenBack()) {
      const { state, gpus } = run;
      const plan = planReturnToSpot({
        workload: state.lease.workload,
        instanceType: REPLAY_INSTANCE_TYPE,
        currentPriceMicroUsdPerHour: run.pool.priceMicroUsdPerHour,
        leaseStartedAtMs: state.lease.startMs,
        nowMs: atMs,
        pools: this.pools(atMs, gpus),
      });
      if (plan.pool === null) continue;
      this.returnsToSpot += 1;
      this.close(run, gpus, atMs);
      this.delayEnd(state, RESTART_MS);
      this.launch(state, 'spot', atMs, gpus, plan.pool);
    }
  }

  /** A restart: the work ends that much later. */
  private delayEnd(state: LeaseState, restartMs: number): void {
    state.endMs += restartMs;
    this.queue.push(state.endMs, RANK.end, { kind: 'end', state });
  }

  /**
   * Launches `gpus` instances of the lease in `preferred` if it still has
   * capacity, else in the pool choosePool picks for `mode`, else for the lease's
   * fallback. A launch into a spot pool without capacity fails and the pool
   * backs off, as with EC2's InsufficientInstanceCapacity.
   */
  private launch(state: LeaseState, mode: RentalMode, atMs: number, gpus: number, preferred?: Pool): void {
    let candidate = preferred ?? null;
    if (candidate && !this.hasCapacity(candidate, gpus, atMs)) {
      if (candidate.mode === 'spot') this.spotFailures.set(candidate.zone, atMs);
      candidate = null;
    }
    let pool = candidate ?? this.place(mode, atMs, gpus);
    const { fallback } = state.decision;
    if (pool === null && fallback !== null && fallback !== mode) {
      if (mode === 'spot') this.spotFallbacks += 1;
      pool = this.place(fallback, atMs, gpus);
    }
    if (pool === null) {
      throw new UnplaceableLeaseError(state.lease.id, atMs, `no ${mode} pool and no usable fallback`);
    }
    this.start(state, pool, atMs, gpus);
  }

  private place(mode: RentalMode, atMs: number, gpus: number): Pool | null {
    return choosePool({ instanceType: REPLAY_INSTANCE_TYPE, mode, nowMs: atMs }, this.pools(atMs, gpus)).pool;
  }

  private pools(atMs: number, gpus: number): Pool[] {
    const hasRoom = this.reservedGpus - this.reservedInUse >= gpus;
    return [
      ...this.input.market.pools(atMs, this.spotFailures),
      ...this.onDemand,
      reservedPool(this.input.prices, hasRoom),
    ];
  }

  private hasCapacity(pool: Pool, gpus: number, atMs: number): boolean {
    if (pool.mode === 'spot') return this.input.market.isAvailable(pool.zone, atMs);
    if (pool.mode === 'reserved') return this.reservedGpus - this.reservedInUse >= gpus;
    return true;
  }

  private start(state: LeaseState, pool: Pool, atMs: number, gpus: number): void {
    const run: Run = { state, pool, launchedAtMs: atMs, gpus };
    state.runs.add(run);
    if (pool.mode === 'spot') {
      if (state.lease.workload === 'inference') this.inferenceOnSpot.add(state.lease.id);
      const lossMs = this.input.market.nextLossMs(pool.zone, atMs);
      if (lossMs < state.endMs) this.queue.push(lossMs, RANK.warning, { kind: 'warning', run });
      return;
    }
    this.steadyRuns.add(run);
    this.steadyChanged = true;
    this.demand.change(atMs, gpus);
    if (pool.mode === 'reserved') this.reservedInUse += gpus;
  }

  /**
   * Ends `gpus` of the run's instances and bills them: per second with the
   * one-minute minimum each; reserved instances are paid for by the term.
   */
  private close(run: Run, gpus: number, atMs: number): void {
    const { pool, launchedAtMs, state } = run;
    run.gpus -= gpus;
    if (run.gpus === 0) {
      state.runs.delete(run);
      this.steadyRuns.delete(run);
    }
    if (pool.mode === 'reserved') {
      this.reservedInUse -= gpus;
      this.reservedBusyGpuMs += gpus * (atMs - launchedAtMs);
    } else {
      this.cost[pool.mode] +=
        gpus * costOfRun({ launchedAtMs, priceMicroUsdPerHour: pool.priceMicroUsdPerHour }, atMs);
    }
    if (pool.mode !== 'spot') {
      this.demand.change(atMs, -gpus);
      this.steadyChanged = true;
    }
  }
}
