import { describe, expect, it } from 'vitest';
import { taskSpecSchema } from '../../../shared/domain/tasks/spec';
import { admitOrQueue } from '../../../shared/usecases/admission/queue';
import { runLeaseCommand } from '../../../shared/usecases/lease-commands';
import { RECONCILE_PERIOD_MS, SILENT_TASKS_PER_RUN } from '../../../shared/usecases/lease-repairs';
import { DEAD_LETTERED_REASON } from '../../../shared/usecases/provision-lease';
import { reconcileFleet } from '../../../shared/usecases/reconcile-fleet';
import { startTaskOnLease } from '../../../shared/usecases/tasks';
import { type FakeControlPlane, fakeControlPlane } from '../../support/fakes/control-plane';
import { requestLease, runningLease, TENANT } from '../../support/fakes/leases';

/** The worker, on every command the reconciler queued of `type`. */
async function runQueued(plane: FakeControlPlane, type: string) {
  for (const command of plane.commands.commands().filter((c) => c.type === type))
    await runLeaseCommand(plane, command);
}

describe('repairs of leases no instance leads to', () => {
  it('a dead-lettered provision: the lease FAILS with the reason and frees its admission hold; the letter goes', async () => {
    const plane = fakeControlPlane();
    const lease = await requestLease(plane);
    expect(await admitOrQueue(plane, lease)).toBe('admitted-on-joining');
    expect(await plane.admission.status(lease.leaseId)).toBe('ADMITTED');
    plane.deadLetters.deadLetter({ type: 'provision', tenantId: TENANT, leaseId: lease.leaseId });

    const summary = await reconcileFleet(plane);
    expect(summary.repairs['provision-dead-lettered']).toBe(1);
    expect(plane.metrics.repaired).toContainEqual({ repair: 'provision-dead-lettered', count: 1 });
    expect(plane.deadLetters.left()).toEqual([]);
    await runQueued(plane, 'abandon');

    const failed = plane.leases.peek(TENANT, lease.leaseId);
    expect(failed).toMatchObject({ status: 'FAILED', failureReason: DEAD_LETTERED_REASON });
    expect(await plane.admission.status(lease.leaseId)).not.toBe('ADMITTED');
    expect(plane.events.ofType('LeaseFailed').map((e) => e.detail.reason)).toEqual([DEAD_LETTERED_REASON]);
  });

  it('a dead letter of a lease a later delivery launched is removed and abandons nothing', async () => {
    const plane = fakeControlPlane();
    const lease = await runningLease(plane);
    plane.deadLetters.deadLetter({ type: 'provision', tenantId: TENANT, leaseId: lease.leaseId });

    expect((await reconcileFleet(plane)).repairs['provision-dead-lettered']).toBe(0);
    expect(plane.deadLetters.left()).toEqual([]);
    expect(plane.commands.commands().filter((c) => c.type === 'abandon')).toEqual([]);
    expect(plane.leases.peek(TENANT, lease.leaseId)?.status).toBe('RUNNING');
  });

  it('leaves a dead letter that is no provision in the DLQ for the operator', async () => {
    const plane = fakeControlPlane();
    plane.deadLetters.deadLetter({ type: 'release', tenantId: TENANT, leaseId: 'lease_x' });
    await reconcileFleet(plane);
    expect(plane.deadLetters.left().map((l) => l.command?.type)).toEqual(['release']);
  });

  it(`asks at most ${SILENT_TASKS_PER_RUN} silent tasks a run; the one left over is asked the next`, async () => {
    const plane = fakeControlPlane();
    const asked: string[] = [];
    const { runner } = plane.tasks;
    const answer = runner.result.bind(runner);
    runner.result = async (_target, commandId) => {
      asked.push(commandId);
      return answer(_target, commandId);
    };
    const spec = taskSpecSchema.parse({ command: ['true'], onExit: 'keep' });
    const leaseIds: string[] = [];
    for (let i = 0; i <= SILENT_TASKS_PER_RUN; i += 1) {
      const lease = await runningLease(plane, { task: spec });
      expect(await startTaskOnLease(plane, TENANT, lease.leaseId)).toBe('STARTING');
      leaseIds.push(lease.leaseId);
    }
    // Sent, and SSM said nothing since: neither its start nor its end came.
    expect((await reconcileFleet(plane)).repairs['task-settled']).toBe(0);
    plane.clock.advance(RECONCILE_PERIOD_MS + 1);

    expect((await reconcileFleet(plane)).repairs['task-settled']).toBe(SILENT_TASKS_PER_RUN);
    expect(asked).toHaveLength(SILENT_TASKS_PER_RUN);
    expect((await reconcileFleet(plane)).repairs['task-settled']).toBe(1);
    expect(new Set(asked).size).toBe(SILENT_TASKS_PER_RUN + 1);
    const tasks = leaseIds.map((leaseId) => plane.leases.peek(TENANT, leaseId)?.task?.status);
    expect(new Set(tasks)).toEqual(new Set(['SUCCEEDED']));
  });
});
