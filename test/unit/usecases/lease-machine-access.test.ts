import { describe, expect, it } from 'vitest';
import {
  LEASE_MACHINE_REFRESH_COMMENT,
  leaseMetricNamespace,
} from '../../../shared/domain/tasks/lease-machine-access';
import { taskLogStreams } from '../../../shared/domain/tasks/log-streams';
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
    task: taskSpecSchema.parse({
      command: ['python', 'train.py'],
      image: 'pytorch/pytorch:2.5.1',
      secrets: { HF_TOKEN: `/gpurent/${TENANT}/hf` },
    }),
  });
  const other = await runningLease(plane);
  expect(await startTaskOnLease(plane, TENANT, lease.leaseId)).toBe('STARTING');
  const inProgress = { type: 'in-progress', commandId: 'cmd-1', atMs: plane.now() } as const;
  expect(await advanceTask(plane, TENANT, lease.leaseId, inProgress)).toBe('RUNNING');
  return { plane, lease, other };
}

describe("an attempt's lease machine credentials", () => {
  it("are minted for the lease's own data only and handed to the attempt behind its profile", async () => {
    const { plane, lease, other } = await runningTask();
    const { machineAccess, runner } = plane.tasks;

    expect(machineAccess.minted).toHaveLength(1);
    const { policy, durationSeconds, sessionName } = machineAccess.minted[0] ?? {};
    if (!policy) throw new Error('no policy');
    expect(durationSeconds).toBe(3600);
    expect(sessionName).toContain(lease.leaseId);
    const object = (leaseId: string) => `arn:aws:s3:::checkpoints/${TENANT}/${leaseId}/model.pt`;
    expect(allows(policy, { action: 's3:PutObject', resource: object(lease.leaseId) })).toBe(true);
    expect(allows(policy, { action: 's3:GetObject', resource: object(other.leaseId) })).toBe(false);
    const stream = (leaseId: string) =>
      `arn:aws:logs:us-east-1:123456789012:log-group:gpurent-task-output:log-stream:${taskLogStreams(leaseId, 1).stdout}`;
    expect(allows(policy, { action: 'logs:PutLogEvents', resource: stream(lease.leaseId) })).toBe(true);
    expect(allows(policy, { action: 'logs:PutLogEvents', resource: stream(other.leaseId) })).toBe(false);
    const put = (namespace: string) =>
      allows(policy, {
        action: 'cloudwatch:PutMetricData',
        resource: '*',
        context: { 'cloudwatch:namespace': namespace },
      });
    expect(put(leaseMetricNamespace(TENANT, lease.leaseId))).toBe(true);
    expect(put(leaseMetricNamespace(TENANT, other.leaseId))).toBe(false);

    const script = runner.sent[0]?.commands ?? [];
    const text = script.join('\n');
    expect(text).toContain('"AccessKeyId":"ASIA1"');
    expect(text).toContain(`export AWS_CONFIG_FILE='/run/gpurent/${lease.leaseId}/config'`);
    expect(text).toContain("export AWS_PROFILE='gpurent-lease'");
    // The secret is resolved with the lease's profile, not the instance role: the profile is exported first.
    const profileAt = script.findIndex((line) => line.startsWith('export AWS_PROFILE='));
    const secretAt = script.findIndex((line) => line.startsWith('HF_TOKEN='));
    expect(profileAt).toBeGreaterThan(-1);
    expect(secretAt).toBeGreaterThan(profileAt);
    // The container sees the profile and the refreshed file, read-only, and not the host's network (IMDS).
    expect(text).toContain(' -e AWS_CONFIG_FILE -e AWS_PROFILE');
    expect(text).toContain(`-v '/run/gpurent/${lease.leaseId}:/run/gpurent/${lease.leaseId}:ro'`);
    expect(text).not.toContain('--network host');
    // Its output goes to files the machine's agent ships to the lease's own streams.
    expect(text).toContain(taskLogStreams(lease.leaseId, 1).stdout);
    expect(text).toContain(`>>'/run/gpurent/${lease.leaseId}/attempt-1.stdout'`);
  });

  it("are minted beside the lease's launch, once, and the first attempt is sent with them", async () => {
    const plane = fakeControlPlane();
    const lease = await requestLease(plane, {
      task: taskSpecSchema.parse({ command: ['python', 'train.py'] }),
    });
    const launchesAtMint: number[] = [];
    const { machineAccess } = plane.tasks;
    const mint = machineAccess.mint.bind(machineAccess);
    machineAccess.mint = (request) => {
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

  it('are minted once per attempt sent: not again when the task is already started', async () => {
    const { plane, lease } = await runningTask();
    const { machineAccess, runner } = plane.tasks;

    // A redelivered start sends and mints nothing.
    expect(await startTaskOnLease(plane, TENANT, lease.leaseId)).toBe('unchanged');
    expect(machineAccess.minted).toHaveLength(1);
    expect(runner.sent).toHaveLength(1);
  });

  it("reach a lease without a task's machines when it runs, for its telemetry, with nothing to run", async () => {
    const plane = fakeControlPlane();
    const lease = await requestLease(plane, {});

    await runLeaseCommand(plane, { type: 'provision', tenantId: TENANT, leaseId: lease.leaseId });

    const instanceId = plane.leases.peek(TENANT, lease.leaseId)?.instances[0]?.instanceId;
    expect(plane.tasks.runner.sent.map((sent) => [sent.comment, sent.target.instanceId])).toEqual([
      [LEASE_MACHINE_REFRESH_COMMENT, instanceId],
    ]);
    const text = plane.tasks.runner.sent[0]?.commands.join('\n') ?? '';
    expect(text).toContain('"AccessKeyId":"ASIA1"');
    // The agent restarts onto them with the lease's own namespace.
    expect(text).toContain(leaseMetricNamespace(TENANT, lease.leaseId));
  });

  it("are re-sent by the reconciler to every running lease's machines before they expire, and not too often", async () => {
    const { plane, lease, other } = await runningTask();
    const { machineAccess, runner } = plane.tasks;
    // The attempt is still running when the reconciler asks SSM after it.
    Object.assign(runner, { result: async () => ({ outcome: 'Pending' as const }) });
    const refreshed = () =>
      runner.sent
        .filter((sent) => sent.comment === LEASE_MACHINE_REFRESH_COMMENT)
        .map((sent) => sent.target.instanceId);
    const ids = [lease.instances[0]?.instanceId, other.instances[0]?.instanceId];

    // In a machine's first 15 minutes: the send at the lease's start may have come before its agent.
    plane.clock.advance(10 * MINUTE);
    await reconcileFleet(plane);
    expect(refreshed().sort()).toEqual([...ids].sort());
    plane.clock.advance(10 * MINUTE);
    await reconcileFleet(plane);
    expect(refreshed()).toHaveLength(2);
    plane.clock.advance(11 * MINUTE);
    expect((await reconcileFleet(plane)).checkpointsRefreshed).toBe(2);
    const refresh = runner.sent.at(-1);
    expect(refresh?.commands.join('\n')).not.toContain('train.py');
    const leaseMints = machineAccess.minted.filter((mint) => mint.sessionName.includes(lease.leaseId));
    expect(leaseMints.at(-1)?.policy).toEqual(leaseMints[0]?.policy);
    // Past the window: nothing until the next hour's.
    plane.clock.advance(20 * MINUTE);
    expect((await reconcileFleet(plane)).checkpointsRefreshed).toBe(0);
    plane.clock.advance(40 * MINUTE);
    expect((await reconcileFleet(plane)).checkpointsRefreshed).toBe(2);
  });
});
