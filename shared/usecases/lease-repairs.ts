import type { LeaseView } from '../domain/lease';
import type { TaskAttempt, TaskState } from '../domain/tasks/state';
import type { LeaseRepair } from '../ports/control-plane-metrics';
import type { DeadLetteredCommands } from '../ports/lease-commands';
import type { LeaseRef } from '../ports/lease-repository';
import type { ControlPlane } from './dependencies';
import { advanceTask, type TaskDeps, targetOf } from './tasks';

/** The reconciler's schedule (infra/constructs/schedules.ts): a repair is due within one of these. */
export const RECONCILE_PERIOD_MS = 5 * 60_000;
/**
 * How long a lease may sit in PENDING or RELEASING before its command is sent
 * again: past the longest a delivery of it can still be on its way (a worker's
 * run, and the queue's redeliveries after throttling), so a re-send is for a
 * command that was lost, not one that is slow.
 */
export const STUCK_AFTER_MS = 10 * 60_000;
/** Leases of each status read from the open-leases index per run: the walk is bounded, not a scan. */
export const OPEN_LEASES_PER_RUN = 200;
/** Silent tasks asked of SSM per run (GetCommandInvocation); the rest rotate into later runs. */
export const SILENT_TASKS_PER_RUN = 50;
/** Dead-lettered commands read per run. */
export const DEAD_LETTERS_PER_RUN = 50;

export type RepairCounts = Record<LeaseRepair, number>;

export const noRepairs = (): RepairCounts => ({
  'provision-resent': 0,
  'release-resent': 0,
  'task-settled': 0,
  'provision-dead-lettered': 0,
});

/** One lease the reconciler repaired, for its log. */
export interface LeaseRepaired {
  readonly repair: LeaseRepair;
  readonly tenantId: string;
  readonly leaseId: string;
}

/** A repair that failed: the run goes on with the others, and the next run tries again. */
export interface RepairFailure {
  readonly tenantId: string;
  readonly leaseId: string;
  readonly error: string;
}

export interface RepairLog {
  readonly repaired: LeaseRepaired[];
  readonly failures: RepairFailure[];
}

export const emptyRepairLog = (): RepairLog => ({ repaired: [], failures: [] });

const keyOf = (ref: LeaseRef) => `${ref.tenantId}/${ref.leaseId}`;

async function attempt(log: RepairLog, ref: LeaseRef, repair: () => Promise<LeaseRepair | undefined>) {
  try {
    const done = await repair();
    if (done) log.repaired.push({ repair: done, tenantId: ref.tenantId, leaseId: ref.leaseId });
  } catch (error) {
    log.failures.push({ ...ref, error: error instanceof Error ? error.message : String(error) });
  }
}

/** The current attempt, when it was sent and has heard nothing since it started (or was sent) for a period. */
function silentAttempt(task: TaskState, nowMs: number): TaskAttempt | undefined {
  if (task.status !== 'RUNNING' && task.status !== 'STARTING') return undefined;
  const record = task.attempts.find((a) => a.attempt === task.attempt);
  if (!record?.commandId || record.endedAtMs !== undefined) return undefined;
  const lastNewsMs = record.startedAtMs ?? record.claimedAtMs;
  return lastNewsMs !== undefined && nowMs - lastNewsMs > RECONCILE_PERIOD_MS ? record : undefined;
}

/**
 * Tasks that have said nothing for longer than a reconcile period (SSM's end
 * event may have been lost) are asked with GetCommandInvocation; one that
 * ended is settled as its event would have settled it, at the instant SSM
 * recorded (never later than now), so an `onExit: release` lease bills to
 * the task's end. Runs past the per-run bound rotate: each run starts one
 * bound further along the leases, so every long task is asked in turn.
 */
export async function settleSilentTasks(
  deps: TaskDeps,
  leases: readonly LeaseView[],
  log: RepairLog,
): Promise<void> {
  const now = deps.now();
  const silent = leases
    .filter((lease) => lease.status === 'RUNNING' && lease.task && silentAttempt(lease.task, now))
    .sort((a, b) => a.leaseId.localeCompare(b.leaseId));
  const start =
    silent.length <= SILENT_TASKS_PER_RUN
      ? 0
      : (Math.floor(now / RECONCILE_PERIOD_MS) * SILENT_TASKS_PER_RUN) % silent.length;
  const asked = [...silent.slice(start), ...silent.slice(0, start)].slice(0, SILENT_TASKS_PER_RUN);
  for (const lease of asked) {
    await attempt(log, lease, async () => {
      const record = lease.task && silentAttempt(lease.task, now);
      if (!record?.commandId) return undefined;
      const result = await deps.tasks.runner.result(
        targetOf(deps, lease, record.instanceId),
        record.commandId,
      );
      if (result.outcome === 'Pending') return undefined;
      const atMs = Math.min(result.endedAtMs ?? now, now);
      const outcome = await advanceTask(
        deps,
        lease.tenantId,
        lease.leaseId,
        {
          type: 'ended',
          commandId: record.commandId,
          outcome: result.outcome,
          exitCode: result.exitCode,
          atMs,
        },
        { lease },
      );
      return outcome === 'unchanged' || outcome === 'no-task' ? undefined : 'task-settled';
    });
  }
}

/**
 * Provision (and start) commands the queue dead-lettered: the lease, if still
 * PENDING, is handed to the worker to end FAILED (`abandon`: its instances
 * ended, its admission hold freed) and the letter leaves the queue. Other
 * commands stay for the operator (the DLQ alarm); their leases are repaired
 * from the open-leases index. Returns the leases abandoned.
 */
export async function drainDeadLetters(
  deps: Pick<ControlPlane, 'leases' | 'commands'> & { readonly deadLetters: DeadLetteredCommands },
  log: RepairLog,
): Promise<Set<string>> {
  const abandoned = new Set<string>();
  for (const letter of await deps.deadLetters.receive(DEAD_LETTERS_PER_RUN)) {
    const command = letter.command;
    if (command?.type !== 'provision' && command?.type !== 'start') continue;
    await attempt(log, command, async () => {
      const lease = await deps.leases.get(command.tenantId, command.leaseId);
      const pending = lease?.status === 'PENDING' && !abandoned.has(keyOf(command));
      if (pending) await deps.commands.send({ ...command, type: 'abandon' });
      await deps.deadLetters.remove(letter);
      if (!pending) return undefined;
      abandoned.add(keyOf(command));
      return 'provision-dead-lettered';
    });
  }
  return abandoned;
}

/** A deadline job the policy told to wait stays PENDING on purpose: its schedule looks at it, not this. */
const waitsOnItsDeadline = (lease: LeaseView) => lease.deadlineDecision?.action.kind === 'wait';

/**
 * Leases no event or command moves on any more, found through the
 * open-leases index (oldest first, a bounded page per status): a PENDING one
 * whose provision (or, after it waited, start) command was lost is sent it
 * again, a RELEASING one its release. The worker runs both idempotently (the
 * command is its idempotency key, launches adopt the lease's tagged
 * instances), so a re-send never launches twice; the release ends whatever
 * runs and closes each bill at the release's instant.
 */
export async function resendStuckCommands(
  deps: Pick<ControlPlane, 'leases' | 'commands' | 'now'>,
  abandoned: ReadonlySet<string>,
  log: RepairLog,
): Promise<void> {
  for (const status of ['PENDING', 'RELEASING'] as const) {
    for (const ref of await deps.leases.openLeases(status, OPEN_LEASES_PER_RUN)) {
      if (abandoned.has(keyOf(ref))) continue;
      await attempt(log, ref, async () => {
        const lease = await deps.leases.get(ref.tenantId, ref.leaseId);
        // The index may lag the table: the lease as it is now decides.
        if (lease?.status !== status || deps.now() - lease.updatedAtMs <= STUCK_AFTER_MS) return undefined;
        if (status === 'RELEASING') {
          await deps.commands.send({ type: 'release', ...ref });
          return 'release-resent';
        }
        if (waitsOnItsDeadline(lease)) return undefined;
        // A lease the admission pass let in was sent `start` (its own idempotency key), not `provision`.
        await deps.commands.send({ type: lease.queuedAtMs === undefined ? 'provision' : 'start', ...ref });
        return 'provision-resent';
      });
    }
  }
}

/** Each repair counted, by kind (LeasesRepaired on the operator dashboard). */
export function countRepairs(log: RepairLog): RepairCounts {
  const counts = noRepairs();
  for (const { repair } of log.repaired) counts[repair] += 1;
  return counts;
}
