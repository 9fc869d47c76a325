import type { PriceCatalog } from '../catalog';
import type { LeaseView } from '../lease';
import type { TaskSpec } from '../tasks/spec';
import { DEFAULT_RESTART_MINUTES, type DeadlineTerms, deadlineTerms } from './lease-fields';
import type { DeadlinePolicyInput, JobPlacement } from './policy-input';
import type { MarketQuery } from './pool-signals';
import { type CheckpointReport, type TaskRun, taskRuns } from './progress';

const MS_PER_HOUR = 3_600_000;

/** A job with a deadline as the policy reads it: its terms, where it runs, its checkpoint and spend, its runs. */
export interface DeadlineJobRecord
  extends Pick<DeadlinePolicyInput, 'job' | 'placement' | 'checkpointRegion' | 'spentMicroUsd'> {
  readonly tenantId: string;
  readonly leaseId: string;
  readonly runs: readonly TaskRun[];
  readonly reports: readonly CheckpointReport[];
  readonly market: MarketQuery;
  /** Why the checkpoints could not be read (the reports are then empty): the decision says so. */
  readonly progressUnreadable?: string | undefined;
}

/** The task's deadline terms, or undefined for a task without a deadline. */
export function taskDeadline(spec: TaskSpec): DeadlineTerms | undefined {
  const { deadline, workMinutes, restartMinutes = DEFAULT_RESTART_MINUTES } = spec;
  if (deadline === undefined || workMinutes === undefined) return undefined;
  return deadlineTerms({ deadline, workMinutes, restartMinutes });
}

/**
 * The lease's machines and all-on-demand price: as many machines of its type
 * as its GPUs need, at the cheapest on-demand price of its allowed regions.
 */
function pricingOf(
  lease: LeaseView,
  instanceType: string,
  catalog: PriceCatalog,
  regions: readonly string[],
) {
  const machines = Math.max(1, Math.ceil(lease.gpus / catalog.gpusPerInstance(instanceType)));
  const priced = regions.filter((region) => catalog.isPricedIn(instanceType, region));
  const perMachine = Math.min(...priced.map((region) => catalog.onDemandMicroPerHour(instanceType, region)));
  return { machines, onDemandMicroUsdPerHour: perMachine * machines };
}

/** Where the lease runs now: on the instances it holds (not warned), else nowhere. */
export function placementOf(lease: LeaseView, homeRegion: string): JobPlacement {
  const held = lease.instances.find((i) => i.meteringOpen && i.interruptedAtMs === undefined);
  if (lease.status !== 'RUNNING' || !held) return { kind: 'waiting' };
  const region = held.region ?? homeRegion;
  return held.mode === 'spot' ? { kind: 'spot', zone: held.zone, region } : { kind: 'on-demand', region };
}

/**
 * The policy's record of a lease with a deadline task, or null for any other
 * lease. All on-demand is priced over the work and one restart at the
 * cheapest allowed region; the checkpoint lives where the lease last ran (its
 * data region before the first run), and what it moves is the lease's data.
 */
export function deadlineJobRecord(
  lease: LeaseView,
  reports: readonly CheckpointReport[],
  catalog: PriceCatalog,
  fleet: { readonly regions: readonly string[]; readonly homeRegion: string },
): DeadlineJobRecord | null {
  const terms = lease.task && taskDeadline(lease.task.spec);
  if (!lease.task || !terms) return null;
  const { homeRegion } = fleet;
  const regions = lease.regions ?? fleet.regions;
  const instanceType = lease.placement?.instanceType || lease.instanceType;
  const pricing = pricingOf(lease, instanceType, catalog, regions);
  const latest = [...lease.instances].sort((a, b) => b.launchedAtMs - a.launchedAtMs)[0];
  return {
    tenantId: lease.tenantId,
    leaseId: lease.leaseId,
    job: {
      submittedAtMs: lease.createdAtMs,
      ...terms,
      checkpointGb: lease.dataGb ?? 0,
      onDemandCostMicroUsd: Math.round(
        (pricing.onDemandMicroUsdPerHour * (terms.workMs + terms.restartMs)) / MS_PER_HOUR,
      ),
    },
    placement: placementOf(lease, homeRegion),
    checkpointRegion: latest ? (latest.region ?? homeRegion) : (lease.dataRegion ?? regions[0] ?? homeRegion),
    spentMicroUsd: lease.instances.reduce((sum, i) => sum + i.billedMicroUsd + (i.transferMicroUsd ?? 0), 0),
    runs: taskRuns(lease.task.attempts, terms.restartMs),
    reports,
    market: {
      instanceType,
      regions,
      machines: pricing.machines,
      history: lease.instances.map((i) => ({
        zone: i.zone,
        startedAtMs: i.launchedAtMs,
        endedAtMs: i.endedAtMs,
        interruptedAtMs: i.interruptedAtMs,
      })),
    },
  };
}
