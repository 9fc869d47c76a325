import { describe, expect, it } from 'vitest';
import { EC2_EVENT_TYPES } from '../../../shared/domain/ec2-events';
import { taskSpecSchema } from '../../../shared/domain/tasks/spec';
import { ComputeThrottledError } from '../../../shared/ports/compute';
import { handleEc2Event } from '../../../shared/usecases/interruptions';
import { runLeaseCommand } from '../../../shared/usecases/lease-commands';
import { meterOpenInstances } from '../../../shared/usecases/metering';
import { reconcileFleet } from '../../../shared/usecases/reconcile-fleet';
import { advanceTask } from '../../../shared/usecases/tasks';
import { type FakeControlPlane, fakeControlPlane } from '../../support/fakes/control-plane';
import { requestLease, TENANT } from '../../support/fakes/leases';

const SECOND = 1000;
const MINUTE = 60 * SECOND;

/** The GPUs of the lease's instances EC2 runs now. */
function liveGpus(plane: FakeControlPlane, leaseId: string): number {
  return plane.compute
    .live()
    .filter((i) => i.leaseId === leaseId)
    .reduce((sum, i) => sum + plane.catalog.gpusPerInstance(i.instanceType), 0);
}

/** Records, at every launch, the GPUs the lease would hold once it lands. */
function gpusHeldAtLaunches(plane: FakeControlPlane, leaseId: string): number[] {
  const held: number[] = [];
  const launch = plane.compute.launch.bind(plane.compute);
  plane.compute.launch = async (request) => {
    held.push(liveGpus(plane, leaseId) + request.count * plane.catalog.gpusPerInstance(request.instanceType));
    return launch(request);
  };
  return held;
}

/** A batch lease on spot whose task runs as attempt 1 (cmd-1) on its one instance; then EC2 warns. */
async function warnedTaskLease(plane: FakeControlPlane) {
  const { sent } = plane.commands;
  const lease = await requestLease(plane, {
    workload: 'batch',
    task: taskSpecSchema.parse({ command: ['python3', 'train.py'], maxAttempts: 3 }),
  });
  await runLeaseCommand(plane, { type: 'provision', tenantId: TENANT, leaseId: lease.leaseId });
  const running = plane.leases.peek(TENANT, lease.leaseId);
  const instance = running?.instances[0];
  if (!instance || running?.status !== 'RUNNING') throw new Error('the lease did not run');
  await advanceTask(plane, TENANT, lease.leaseId, {
    type: 'in-progress',
    commandId: 'cmd-1',
    atMs: plane.now(),
  });

  plane.clock.advance(10 * MINUTE);
  const warnedAtMs = plane.now();
  await handleEc2Event(plane, {
    id: `warning-${instance.instanceId}`,
    source: 'aws.ec2',
    region: 'us-east-1',
    time: new Date(warnedAtMs).toISOString(),
    'detail-type': EC2_EVENT_TYPES.spotWarning,
    detail: { 'instance-id': instance.instanceId, 'instance-action': 'terminate' },
  });
  const replace = sent.find((q) => q.command.type === 'replace');
  if (!replace) throw new Error('no replace command queued');
  return { leaseId: lease.leaseId, instance, warnedAtMs, replace };
}

const stored = (plane: FakeControlPlane, leaseId: string, instanceId: string) =>
  plane.leases.peek(TENANT, leaseId)?.instances.find((i) => i.instanceId === instanceId);

describe('a warned spot instance AWS does not take', () => {
  it('is terminated at warning + 120 s when its replacement never runs, its bill ends at that second and its attempt is stopped', async () => {
    const plane = fakeControlPlane();
    const { leaseId, instance, warnedAtMs, replace } = await warnedTaskLease(plane);
    const launches = gpusHeldAtLaunches(plane, leaseId);
    expect(replace.visibleAtMs).toBe(warnedAtMs + 2 * MINUTE);

    // The meter runs every minute meanwhile; the warned instance works on, alone.
    plane.clock.advance(MINUTE);
    await meterOpenInstances(plane, plane.now());
    expect(liveGpus(plane, leaseId)).toBe(1);

    // The replace command comes due; every launch of the replacement is throttled.
    plane.clock.set(replace.visibleAtMs);
    plane.compute.throttle('launch');
    await expect(runLeaseCommand(plane, replace.command)).rejects.toBeInstanceOf(ComputeThrottledError);

    const ended = stored(plane, leaseId, instance.instanceId);
    expect(plane.compute.all().find((i) => i.instanceId === instance.instanceId)?.state).toBe(
      'shutting-down',
    );
    expect(ended).toMatchObject({
      meteringOpen: false,
      endedAtMs: warnedAtMs + 2 * MINUTE,
      billedSeconds: (warnedAtMs + 2 * MINUTE - instance.launchedAtMs) / SECOND,
    });
    expect(plane.tasks.runner.cancelled.map((c) => c.commandId)).toEqual(['cmd-1']);
    const task = plane.leases.peek(TENANT, leaseId)?.task;
    expect(task).toMatchObject({ status: 'WAITING', attempt: 1 });
    expect(task?.attempts[0]).toMatchObject({ status: 'INTERRUPTED' });

    // Later ticks bill it no further; the redelivered command finally places the replacement.
    plane.clock.advance(3 * MINUTE);
    await meterOpenInstances(plane, plane.now());
    expect(stored(plane, leaseId, instance.instanceId)?.billedSeconds).toBe(ended?.billedSeconds);
    expect((await runLeaseCommand(plane, replace.command)).outcome).toBe('replaced');
    expect(launches.every((gpus) => gpus <= 1)).toBe(true);
    expect(launches.length).toBeGreaterThan(0);
    expect(liveGpus(plane, leaseId)).toBe(1);
    expect(plane.tasks.runner.sent.map((s) => s.commandId)).toEqual(['cmd-1', 'cmd-2']);
    expect(plane.leases.peek(TENANT, leaseId)?.task).toMatchObject({ status: 'STARTING', attempt: 2 });
  });

  it('is never billed past its two minutes, and the reconciler ends it when the replace command is lost', async () => {
    const plane = fakeControlPlane();
    const { leaseId, instance, warnedAtMs } = await warnedTaskLease(plane);

    for (let minute = 1; minute <= 4; minute += 1) {
      plane.clock.set(warnedAtMs + minute * MINUTE);
      await meterOpenInstances(plane, plane.now());
    }
    expect(stored(plane, leaseId, instance.instanceId)).toMatchObject({
      meteringOpen: true,
      billedSeconds: (warnedAtMs + 2 * MINUTE - instance.launchedAtMs) / SECOND,
    });
    expect(liveGpus(plane, leaseId)).toBe(1);

    plane.clock.set(warnedAtMs + 5 * MINUTE);
    expect((await reconcileFleet(plane)).retired).toBe(1);
    await meterOpenInstances(plane, plane.now());

    expect(liveGpus(plane, leaseId)).toBe(0);
    expect(stored(plane, leaseId, instance.instanceId)).toMatchObject({
      meteringOpen: false,
      endedAtMs: warnedAtMs + 2 * MINUTE,
      billedSeconds: (warnedAtMs + 2 * MINUTE - instance.launchedAtMs) / SECOND,
    });
  });

  it('is left alone by the reconciler within its two minutes', async () => {
    const plane = fakeControlPlane();
    const { leaseId, warnedAtMs } = await warnedTaskLease(plane);
    plane.clock.set(warnedAtMs + 2 * MINUTE - SECOND);

    expect((await reconcileFleet(plane)).retired).toBe(0);
    expect(liveGpus(plane, leaseId)).toBe(1);
  });
});
