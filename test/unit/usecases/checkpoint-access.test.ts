import { describe, expect, it } from 'vitest';
import { CHECKPOINT_REFRESH_COMMENT } from '../../../shared/domain/tasks/checkpoint-access';
import { taskSpecSchema } from '../../../shared/domain/tasks/spec';
import { runLeaseCommand } from '../../../shared/usecases/lease-commands';
import { reconcileFleet } from '../../../shared/usecases/reconcile-fleet';
import { advanceTask, startTaskOnLease } from '../../../shared/usecases/tasks';
import { fakeControlPlane } from '../../support/fakes/control-plane';
import { requestLease, runningLease, TENANT } from '../../support/fakes/leases';
import { allows } from '../../support/iam-policy';

const MINUTE = 60_000;

/** A lease whose task runs (attempt 1 in progress), and another lease beside it. */
async function runningTask() {
  const plane = fakeControlPlane();
  const lease = await runningLease(plane, {
    task: taskSpecSchema.parse({ command: ['python', 'train.py'], image: 'pytorch/pytorch:2.5.1' }),
  });
  const other = await runningLease(plane);
  expect(await startTaskOnLease(plane, TENANT, lease.leaseId)).toBe('STARTING');
  const inProgress = { type: 'in-progress', commandId: 'cmd-1', atMs: plane.now() } as const;
  expect(await advanceTask(plane, TENANT, lease.leaseId, inProgress)).toBe('RUNNING');
  return { plane, lease, other };
}

describe("an attempt's checkpoint access", () => {
  it("is minted for the lease's prefix only and handed to the attempt behind its profile", async () => {
    const { plane, lease, other } = await runningTask();
    const { checkpointAccess, runner } = plane.tasks;

    expect(checkpointAccess.minted).toHaveLength(1);
    const { policy, durationSeconds, sessionName } = checkpointAccess.minted[0] ?? {};
    if (!policy) throw new Error('no policy');
    expect(durationSeconds).toBe(3600);
    expect(sessionName).toContain(lease.leaseId);
    const object = (leaseId: string) => `arn:aws:s3:::checkpoints/${TENANT}/${leaseId}/model.pt`;
    expect(allows(policy, { action: 's3:PutObject', resource: object(lease.leaseId) })).toBe(true);
    expect(allows(policy, { action: 's3:GetObject', resource: object(other.leaseId) })).toBe(false);

    const script = (runner.sent[0]?.commands ?? []).join('\n');
    expect(script).toContain('"AccessKeyId":"ASIA1"');
    expect(script).toContain(`export AWS_CONFIG_FILE='/run/gpurent/${lease.leaseId}/config'`);
    expect(script).toContain("export AWS_PROFILE='gpurent-checkpoints'");
    // The container sees the profile and the refreshed file, read-only.
    expect(script).toContain(' -e AWS_CONFIG_FILE -e AWS_PROFILE');
    expect(script).toContain(`-v '/run/gpurent/${lease.leaseId}:/run/gpurent/${lease.leaseId}:ro'`);
  });

  it("is minted beside the lease's launch, once, and the first attempt is sent with it", async () => {
    const plane = fakeControlPlane();
    const lease = await requestLease(plane, {
      task: taskSpecSchema.parse({ command: ['python', 'train.py'] }),
    });
    const launchesAtMint: number[] = [];
    const { checkpointAccess } = plane.tasks;
    const mint = checkpointAccess.mint.bind(checkpointAccess);
    checkpointAccess.mint = (request) => {
      launchesAtMint.push(plane.compute.faults.callsOf('launch').length);
      return mint(request);
    };

    await runLeaseCommand(plane, { type: 'provision', tenantId: TENANT, leaseId: lease.leaseId });

    // Asked for before EC2 was: the launch does not hold it up.
    expect(launchesAtMint).toEqual([0]);
    expect(plane.compute.faults.callsOf('launch')).toHaveLength(1);
    expect(plane.tasks.runner.sent).toHaveLength(1);
    expect((plane.tasks.runner.sent[0]?.commands ?? []).join('\n')).toContain('"AccessKeyId":"ASIA1"');
    expect(plane.leases.peek(TENANT, lease.leaseId)?.task?.status).toBe('STARTING');
  });

  it('is minted once per attempt sent: not again when the task is already started', async () => {
    const { plane, lease } = await runningTask();
    const { checkpointAccess, runner } = plane.tasks;

    // A redelivered start, and the reconciler's look at a running task, send and mint nothing.
    expect(await startTaskOnLease(plane, TENANT, lease.leaseId)).toBe('unchanged');
    expect(checkpointAccess.minted).toHaveLength(1);
    expect(runner.sent).toHaveLength(1);
  });

  it('is re-sent by the reconciler before it expires, only to the running attempt, and not too often', async () => {
    const { plane, lease } = await runningTask();
    const { checkpointAccess, runner } = plane.tasks;
    const instanceId = lease.instances[0]?.instanceId;

    plane.clock.advance(10 * MINUTE);
    expect((await reconcileFleet(plane)).checkpointsRefreshed).toBe(0);
    plane.clock.advance(21 * MINUTE);
    expect((await reconcileFleet(plane)).checkpointsRefreshed).toBe(1);
    const refresh = runner.sent.at(-1);
    expect(refresh?.comment).toBe(CHECKPOINT_REFRESH_COMMENT);
    expect(refresh?.target.instanceId).toBe(instanceId);
    expect(refresh?.commands.join('\n')).toContain(`"AccessKeyId":"ASIA2"`);
    expect(refresh?.commands.join('\n')).not.toContain('train.py');
    expect(checkpointAccess.minted[1]?.policy).toEqual(checkpointAccess.minted[0]?.policy);
    // Past the window: nothing until the next hour's.
    plane.clock.advance(20 * MINUTE);
    expect((await reconcileFleet(plane)).checkpointsRefreshed).toBe(0);
    plane.clock.advance(40 * MINUTE);
    expect((await reconcileFleet(plane)).checkpointsRefreshed).toBe(1);
  });
});
