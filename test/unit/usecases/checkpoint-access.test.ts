import { describe, expect, it } from 'vitest';
import { taskSpecSchema } from '../../../shared/domain/tasks/spec';
import type { TaskRunner } from '../../../shared/ports/task-runner';
import { startTaskOnLease } from '../../../shared/usecases/tasks';
import { fakeControlPlane } from '../../support/fakes/control-plane';
import { runningLease, TENANT } from '../../support/fakes/leases';
import { FakeScopedCredentials } from '../../support/fakes/task-access';
import { allows } from '../../support/iam-policy';

/** SSM as the task core sees it, keeping each script it was sent. */
function recordingRunner(): TaskRunner & { scripts: string[][] } {
  const scripts: string[][] = [];
  return {
    scripts,
    send: async (_target, commands) => {
      scripts.push([...commands]);
      return `cmd-${scripts.length}`;
    },
    cancel: async () => true,
    result: async () => ({ outcome: 'Success', exitCode: 0 }),
  };
}

describe("an attempt's checkpoint access", () => {
  it("is minted for the lease's prefix only and handed to the attempt behind its profile", async () => {
    const plane = fakeControlPlane();
    const runner = recordingRunner();
    const checkpointAccess = new FakeScopedCredentials(plane.now);
    const deps = { ...plane, tasks: { runner, checkpointBucket: 'ckpt', checkpointAccess } };
    const lease = await runningLease(plane, {
      task: taskSpecSchema.parse({ command: ['python', 'train.py'], image: 'pytorch/pytorch:2.5.1' }),
    });
    const other = await runningLease(plane);

    expect(await startTaskOnLease(deps, TENANT, lease.leaseId)).toBe('STARTING');

    expect(checkpointAccess.minted).toHaveLength(1);
    const { policy, durationSeconds, sessionName } = checkpointAccess.minted[0] ?? {};
    if (!policy) throw new Error('no policy');
    expect(durationSeconds).toBe(3600);
    expect(sessionName).toContain(lease.leaseId);
    const object = (leaseId: string) => `arn:aws:s3:::ckpt/${TENANT}/${leaseId}/model.pt`;
    expect(allows(policy, { action: 's3:PutObject', resource: object(lease.leaseId) })).toBe(true);
    expect(allows(policy, { action: 's3:GetObject', resource: object(other.leaseId) })).toBe(false);

    const script = (runner.scripts[0] ?? []).join('\n');
    expect(script).toContain('"AccessKeyId":"ASIA1"');
    expect(script).toContain(`export AWS_CONFIG_FILE='/run/gpurent/${lease.leaseId}/config'`);
    expect(script).toContain("export AWS_PROFILE='gpurent-checkpoints'");
    // The container sees the profile and the refreshed file, read-only.
    expect(script).toContain(' -e AWS_CONFIG_FILE -e AWS_PROFILE');
    expect(script).toContain(`-v '/run/gpurent/${lease.leaseId}:/run/gpurent/${lease.leaseId}:ro'`);
  });
});
