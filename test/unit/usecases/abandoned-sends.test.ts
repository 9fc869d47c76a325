import { describe, expect, it } from 'vitest';
import { attemptComment } from '../../../shared/domain/tasks/attempt-command';
import { LEASE_MACHINE_REFRESH_COMMENT } from '../../../shared/domain/tasks/lease-machine-access';
import { taskSpecSchema } from '../../../shared/domain/tasks/spec';
import { ABANDONED_SEND_MS, applyTaskEvent, newTask } from '../../../shared/domain/tasks/state';
import { reconcileFleet } from '../../../shared/usecases/reconcile-fleet';
import { fakeControlPlane } from '../../support/fakes/control-plane';
import { runningLease, TENANT } from '../../support/fakes/leases';

const MINUTE = 60_000;

/**
 * A running lease whose task a sender claimed (attempt 1 SENDING) and then
 * died: the claim is written, none of its effects ran.
 */
async function claimedByADeadSender() {
  const plane = fakeControlPlane();
  const lease = await runningLease(plane, {
    task: taskSpecSchema.parse({ command: ['python', 'train.py'] }),
  });
  const instanceId = lease.instances[0]?.instanceId ?? '';
  const stored = await plane.leases.get(TENANT, lease.leaseId);
  if (!stored?.task) throw new Error('no task');
  const claim = applyTaskEvent(stored.task, { type: 'instance-ready', instanceId, atMs: plane.now() });
  expect(claim.effects).toEqual([{ kind: 'send', attempt: 1, instanceId }]);
  expect(await plane.leases.saveTask(TENANT, lease.leaseId, claim.task)).toBe(true);
  const attempt = async () => (await plane.leases.get(TENANT, lease.leaseId))?.task?.attempts[0];
  return { plane, lease, instanceId, attempt };
}

describe('an attempt whose sender died between its claim and recording the command', () => {
  it('is left alone while its sender may still live, then sent once by the reconciler', async () => {
    const { plane, lease, instanceId, attempt } = await claimedByADeadSender();
    const { runner } = plane.tasks;

    plane.clock.advance(ABANDONED_SEND_MS - MINUTE);
    expect((await reconcileFleet(plane)).sendsTakenOver).toBe(0);
    expect(runner.sent).toHaveLength(0);

    plane.clock.advance(MINUTE);
    expect((await reconcileFleet(plane)).sendsTakenOver).toBe(1);
    expect(runner.sent).toHaveLength(1);
    expect(runner.sent[0]?.target.instanceId).toBe(instanceId);
    expect(runner.sent[0]?.comment).toBe(attemptComment(lease.leaseId, 1));
    expect(runner.sent[0]?.commands.join('\n')).toContain('train.py');
    expect(await attempt()).toMatchObject({ attempt: 1, status: 'SENT', commandId: 'cmd-1' });

    // Recorded now: later rounds send nothing more (of the attempt; the lease's credentials are kept fresh).
    plane.clock.advance(ABANDONED_SEND_MS);
    expect((await reconcileFleet(plane)).sendsTakenOver).toBe(0);
    expect(runner.sent.filter((sent) => sent.comment !== LEASE_MACHINE_REFRESH_COMMENT)).toHaveLength(1);
  });

  it('adopts the command the dead sender did send, so the attempt never runs twice', async () => {
    const { plane, lease, instanceId, attempt } = await claimedByADeadSender();
    const { runner } = plane.tasks;
    const region = lease.instances[0]?.region ?? plane.region;
    // The sender's SendCommand went through; it died before writing the id.
    const sentByTheDead = await runner.send(
      { instanceId, region },
      ['…'],
      60,
      attemptComment(lease.leaseId, 1),
    );

    plane.clock.advance(ABANDONED_SEND_MS);
    expect((await reconcileFleet(plane)).sendsTakenOver).toBe(1);
    expect(runner.sent).toHaveLength(1);
    expect(await attempt()).toMatchObject({ attempt: 1, status: 'SENT', commandId: sentByTheDead });
  });

  it('is taken over by one of two racing rounds only', () => {
    const waiting = newTask(taskSpecSchema.parse({ command: ['true'] }));
    const claimed = applyTaskEvent(waiting, { type: 'instance-ready', instanceId: 'i-1', atMs: 0 }).task;
    const late = { type: 'instance-ready', instanceId: 'i-1', atMs: ABANDONED_SEND_MS } as const;
    const first = applyTaskEvent(claimed, late);
    expect(first.effects).toEqual([{ kind: 'send', attempt: 1, instanceId: 'i-1', takeOver: true }]);
    // Both rounds read the same revision; the store's conditional write lets one of them act.
    expect(applyTaskEvent(claimed, late).task.revision).toBe(first.task.revision);
    // The winner's claim is fresh: a round right after it takes nothing over.
    expect(applyTaskEvent(first.task, late).changed).toBe(false);
    // Another instance of the lease never takes over this attempt.
    expect(applyTaskEvent(claimed, { ...late, instanceId: 'i-2' }).changed).toBe(false);
  });
});
