import { isTerminal, type LeaseView } from '../domain/lease';
import { isSendAbandoned } from '../domain/tasks/state';
import type { WarmMachine } from '../domain/warm-pools/machine';
import type { ComputeInstance } from '../ports/compute';
import type { LeaseRepair } from '../ports/control-plane-metrics';
import type { DomainEvent } from '../ports/domain-events';
import type { DeadLetteredCommands } from '../ports/lease-commands';
import type { ControlPlane, InterruptionMarking } from './dependencies';
import { heldInstances, toLeaseInstances } from './lease-instances';
import {
  countRepairs,
  drainDeadLetters,
  emptyRepairLog,
  type RepairCounts,
  type RepairLog,
  resendStuckCommands,
  settleSilentTasks,
} from './lease-repairs';
import { refreshLeaseMachineAccess, startTaskOnLease, type TaskDeps } from './tasks';
import { stampVanishedInstances } from './vanished-instances';
import { endWarnedInstances, overdueWarned } from './warned-instances';

export interface ReconcileSummary {
  readonly managed: number;
  readonly terminated: number;
  readonly adopted: number;
  /** Leases repaired, by kind: lost commands re-sent, silent tasks settled, dead-lettered provisions failed. */
  readonly repairs: RepairCounts;
  /** Each lease repaired, and each repair that failed (tried again next run), for the log. */
  readonly repairLog: RepairLog;
  /** Instances gone from EC2 while still billed, whose end was stamped. */
  readonly ended: number;
  /** Running attempts whose checkpoint credentials were re-sent before they expire. */
  readonly checkpointsRefreshed: number;
  /** Attempts whose sender died between its claim and recording the command: sent, or adopted, here. */
  readonly sendsTakenOver: number;
  /** Warned instances past their two minutes that no replace command ended (it was lost): ended here. */
  readonly retired: number;
}

/**
 * No GPU runs unseen: every live instance carrying the managed tag must belong
 * to a live lease. Instances of no lease, an unknown lease or an ended lease
 * are terminated; live instances a RUNNING lease does not know are recorded so
 * they are billed; billed instances EC2 no longer runs get their end stamped,
 * so their bill closes; warned instances whose two minutes are up are ended
 * (the replace command does it first; this is for one that never came);
 * task attempts whose sender died before recording its command are sent.
 * Then the leases no instance leads to (lease-repairs.ts): dead-lettered
 * provisions end FAILED, commands of leases stuck in PENDING or RELEASING are
 * re-sent, and tasks silent for a period are asked how they ended.
 */
/** The fleet against the table: EC2, leases, the commands it re-sends, the strays it adopts. */
export type ReconcileDeps = InterruptionMarking &
  Pick<ControlPlane, 'compute' | 'catalog' | 'commitments' | 'warmPools' | 'metrics'> &
  Pick<TaskDeps, 'tasks'> & { readonly deadLetters: DeadLetteredCommands };

/**
 * A warm machine of no lease is kept while stopped (or stopping), and while
 * running only as long as the pool records it initialising; one started
 * otherwise runs for no lease, and is ended as an orphan.
 */
function keptWarm(instance: ComputeInstance, warm: readonly WarmMachine[]): boolean {
  if (instance.warmPool === undefined || instance.leaseId) return false;
  if (instance.state === 'stopped' || instance.state === 'stopping') return true;
  return warm.some((m) => m.instanceId === instance.instanceId && m.state === 'launching');
}

/**
 * A RUNNING lease's strays (tagged to it, recorded nowhere: a worker that died
 * between RunInstances and its write) are adopted, so they are billed, only up
 * to the GPUs the lease lacks; the rest would make it hold more GPUs than it
 * asked for, and are ended like orphans.
 */
function strayFit(
  deps: Pick<ReconcileDeps, 'catalog'>,
  lease: LeaseView,
  strays: readonly ComputeInstance[],
): { adopt: ComputeInstance[]; surplus: ComputeInstance[] } {
  const gpusOf = (instanceType: string) => deps.catalog.gpusPerInstance(instanceType);
  let held = heldInstances(lease.instances).reduce((sum, i) => sum + gpusOf(i.instanceType), 0);
  const adopt: ComputeInstance[] = [];
  const surplus: ComputeInstance[] = [];
  for (const stray of strays) {
    const gpus = gpusOf(stray.instanceType);
    if (held + gpus <= lease.gpus) {
      adopt.push(stray);
      held += gpus;
    } else surplus.push(stray);
  }
  return { adopt, surplus };
}

export async function reconcileFleet(deps: ReconcileDeps): Promise<ReconcileSummary> {
  const managed = await deps.compute.managedInstances();
  const byLease = new Map<string, ComputeInstance[]>();
  const orphans: ComputeInstance[] = [];
  const warm = await deps.warmPools.listMachines();
  for (const instance of managed) {
    if (keptWarm(instance, warm)) continue;
    if (!instance.leaseId || !instance.tenantId) orphans.push(instance);
    else
      byLease.set(`${instance.tenantId}/${instance.leaseId}`, [
        ...(byLease.get(`${instance.tenantId}/${instance.leaseId}`) ?? []),
        instance,
      ]);
  }

  let adopted = 0;
  const running: LeaseView[] = [];
  let checkpointsRefreshed = 0;
  let sendsTakenOver = 0;
  for (const instances of byLease.values()) {
    const { tenantId = '', leaseId = '' } = instances[0] ?? {};
    const lease = await deps.leases.get(tenantId, leaseId);
    if (!lease || isTerminal(lease.status)) {
      orphans.push(...instances);
      continue;
    }
    const known = new Set(lease.instances.map((i) => i.instanceId));
    const unknown = instances.filter((i) => !known.has(i.instanceId));
    if (lease.status === 'RUNNING' && unknown.length > 0) {
      const { adopt, surplus } = strayFit(deps, lease, unknown);
      if (adopt.length > 0) await deps.leases.recordInstances(await toLeaseInstances(deps, lease, adopt));
      adopted += adopt.length;
      orphans.push(...surplus);
    }
    // It visits every live lease anyway: the one place a lease's machine credentials are kept fresh.
    if (lease.status === 'RUNNING' && (await refreshLeaseMachineAccess(deps, lease)))
      checkpointsRefreshed += 1;
    if (lease.status === 'RUNNING' && lease.task && isSendAbandoned(lease.task, deps.now())) {
      if ((await startTaskOnLease(deps, tenantId, leaseId)) === 'STARTING') sendsTakenOver += 1;
    } else if (lease.status === 'RUNNING' && lease.task) running.push(lease);
  }

  await deps.compute.terminate(orphans);
  const events: DomainEvent[] = orphans.map((i) => ({
    type: 'OrphanInstanceTerminated',
    tenantId: i.tenantId ?? 'unknown',
    detail: {
      instanceId: i.instanceId,
      leaseId: i.leaseId,
      instanceType: i.instanceType,
      launchedAtMs: i.launchedAtMs,
    },
  }));
  await deps.events.publish(events);
  const ended = await stampVanishedInstances(deps, managed);
  const overdue = overdueWarned(await deps.leases.openInstances(), deps.now());
  const retired = (await endWarnedInstances(deps, overdue)).length;

  // Leases no live instance leads to: a task runs only on one, every other repair starts from the index.
  const repairLog = emptyRepairLog();
  await settleSilentTasks(deps, running, repairLog);
  const abandoned = await drainDeadLetters(deps, repairLog);
  await resendStuckCommands(deps, abandoned, repairLog);
  const repairs = countRepairs(repairLog);
  for (const [repair, count] of Object.entries(repairs) as [LeaseRepair, number][])
    deps.metrics.leasesRepaired(repair, count);
  return {
    managed: managed.length,
    terminated: orphans.length,
    adopted,
    repairs,
    repairLog,
    ended,
    checkpointsRefreshed,
    sendsTakenOver,
    retired,
  };
}
