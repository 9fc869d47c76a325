import { describe, expect, it } from 'vitest';
import { setTenantQuota } from '../../../shared/usecases/admission/quotas';
import { createLease } from '../../../shared/usecases/create-lease';
import { followScheduledDecision } from '../../../shared/usecases/deadline-steering';
import { runLeaseCommand } from '../../../shared/usecases/lease-commands';
import { provisionLease } from '../../../shared/usecases/provision-lease';
import { fakeControlPlane } from '../../support/fakes/control-plane';
import { LeaseBackedDeadlineJobs } from '../../support/fakes/deadline-jobs';
import { DEFAULT_TYPE, TENANT } from '../../support/fakes/leases';

const MINUTE = 60_000;

/** A fake control plane whose deadline jobs are read from its own leases. */
function planeWithDeadlines() {
  const base = fakeControlPlane();
  const deadlineJobs = new LeaseBackedDeadlineJobs(base.leases, {
    regions: base.placement.regions,
    homeRegion: base.region,
  });
  return { ...base, deadlineJobs };
}

type Plane = ReturnType<typeof planeWithDeadlines>;

/** A batch lease with a task of `workMinutes` due `deadlineMinutes` from now, provisioned by the worker's command. */
async function deadlineLease(
  plane: Plane,
  workMinutes: number,
  deadlineMinutes: number,
  expected: 'running' | 'queued' = 'running',
) {
  const lease = await createLease(
    plane,
    {
      tenantId: TENANT,
      gpus: 1,
      workload: 'batch',
      task: {
        command: ['python', 'train.py'],
        deadline: new Date(plane.now() + deadlineMinutes * MINUTE).toISOString(),
        workMinutes,
        restartMinutes: 5,
        onExit: 'release',
        maxAttempts: 3,
        retryOnFailure: false,
      },
    },
    DEFAULT_TYPE,
  );
  const { outcome } = await runLeaseCommand(plane, {
    type: 'provision',
    tenantId: TENANT,
    leaseId: lease.leaseId,
  });
  expect(outcome).toBe(expected);
  return lease.leaseId;
}

describe('the worker places jobs with deadlines where the policy decides', () => {
  it('decides for a job whose lease waits in the admission queue, and says that it waits, why and where', async () => {
    const plane = planeWithDeadlines();
    await setTenantQuota(plane, TENANT, {
      maxGpus: 1,
      maxHourlyMicroUsd: 100_000_000,
      maxGpusByMode: {},
      weight: 1,
    });
    const first = await createLease(plane, { tenantId: TENANT, gpus: 1, workload: 'training' }, DEFAULT_TYPE);
    expect(await provisionLease(plane, TENANT, first.leaseId)).toBe('running');
    const leaseId = await deadlineLease(plane, 60, 24 * 60, 'queued');
    expect(plane.deadlineJobs.decisions).toEqual([]);

    plane.clock.advance(5 * MINUTE);
    expect(await followScheduledDecision(plane, TENANT, leaseId)).toBe('unchanged');

    const [decision] = plane.deadlineJobs.decisions;
    expect(decision?.trigger).toBe('schedule');
    expect(decision?.reason).toMatch(
      /; the lease waits in the admission queue \(quota, position 1\) and follows this once admitted$/,
    );
    expect(plane.events.ofType('JobPolicyDecision').map((e) => e.detail.reason)).toEqual([decision?.reason]);
    expect(plane.leases.peek(TENANT, leaseId)?.status).toBe('QUEUED');
  });

  it('launches on spot in the pool the launch decision names, and stores and sends the decision', async () => {
    const plane = planeWithDeadlines();
    const leaseId = await deadlineLease(plane, 60, 24 * 60);
    const [decision] = plane.deadlineJobs.decisions;
    expect(decision).toMatchObject({ trigger: 'launch', action: { kind: 'spot' } });
    const lease = plane.leases.peek(TENANT, leaseId);
    expect(lease?.placement).toMatchObject({
      mode: 'spot',
      zone: decision?.action.kind === 'spot' ? decision.action.zone : '',
    });
    // The decision names the zone and the price; placement adds only the type it chose there.
    expect(lease?.placement?.reason).toBe(
      `deadline policy: ${decision?.reason}; ${lease?.placement?.instanceType} there`,
    );
    expect(plane.events.ofType('JobPolicyDecision').map((e) => e.detail.trigger)).toEqual(['launch']);
  });

  it('switches a spot job to on-demand once the slack no longer covers a restart: the old attempt and machine end first', async () => {
    const plane = planeWithDeadlines();
    // 60 minutes of work, 75 to the deadline: on spot at first, with 8 minutes of slack (a 5-minute restart and a
    // 2-minute look apart), enough for the spot start's own restart.
    const leaseId = await deadlineLease(plane, 60, 75);
    const spot = plane.leases.peek(TENANT, leaseId)?.instances[0];
    expect(spot?.mode).toBe('spot');

    // Nine minutes on, no checkpoint reported: the schedule's look must go on-demand.
    plane.clock.advance(9 * MINUTE);
    expect(await followScheduledDecision(plane, TENANT, leaseId)).toBe('switched');

    const lease = plane.leases.peek(TENANT, leaseId);
    expect(lease?.status).toBe('RUNNING');
    expect(lease?.placement?.mode).toBe('on-demand');
    const onDemand = lease?.instances.find((i) => i.instanceId !== spot?.instanceId);
    expect(onDemand?.mode).toBe('on-demand');
    // One machine at a time: the spot one ended (its bill closed) before the on-demand one launched.
    expect(plane.compute.live().map((i) => i.instanceId)).toEqual([onDemand?.instanceId]);
    const ended = lease?.instances.find((i) => i.instanceId === spot?.instanceId);
    expect(ended?.meteringOpen).toBe(false);
    expect(ended?.endedAtMs).toBeLessThanOrEqual(onDemand?.launchedAtMs ?? 0);
    // The attempt on the spot machine ended as interrupted; the next runs on the on-demand one.
    expect(lease?.task?.attempts.map((a) => [a.instanceId, a.status])).toEqual([
      [spot?.instanceId, 'INTERRUPTED'],
      [onDemand?.instanceId, 'SENT'],
    ]);
    expect(plane.events.ofType('LeaseInterrupted')).toEqual([]);
    expect(plane.events.ofType('LeaseReplaced').map((e) => e.detail.replacedInstanceId)).toEqual([
      spot?.instanceId,
    ]);
    const last = plane.deadlineJobs.decisions.at(-1);
    expect(last).toMatchObject({ trigger: 'schedule', action: { kind: 'on-demand' } });
    expect(last?.slackMs).toBeLessThan(0);

    // The next look follows the decision already: nothing moves.
    plane.clock.advance(2 * MINUTE);
    expect(await followScheduledDecision(plane, TENANT, leaseId)).toBe('unchanged');
    expect(plane.compute.live().map((i) => i.instanceId)).toEqual([onDemand?.instanceId]);

    // The task reports 55 of its 60 minutes saved: with slack to spare and spot's saving over the last 5 minutes
    // paying for its restart, it goes back to spot the same way.
    plane.deadlineJobs.reports = [{ atMs: plane.now(), doneMs: 55 * MINUTE }];
    plane.clock.advance(2 * MINUTE);
    expect(await followScheduledDecision(plane, TENANT, leaseId)).toBe('switched');
    const back = plane.leases.peek(TENANT, leaseId);
    expect(back?.placement?.mode).toBe('spot');
    const spotAgain = back?.instances.find((i) => i.meteringOpen);
    expect(spotAgain?.mode).toBe('spot');
    expect(plane.compute.live().map((i) => i.instanceId)).toEqual([spotAgain?.instanceId]);
    expect(plane.deadlineJobs.decisions.at(-1)?.reason).toMatch(/back to spot/);
  });

  it('takes a job that is over off the schedule, deciding nothing', async () => {
    const plane = planeWithDeadlines();
    const leaseId = await deadlineLease(plane, 60, 24 * 60);
    await runLeaseCommand(plane, { type: 'release', tenantId: TENANT, leaseId });
    const decided = plane.deadlineJobs.decisions.length;
    expect(await followScheduledDecision(plane, TENANT, leaseId)).toBe('closed');
    expect(plane.deadlineJobs.closed).toEqual([leaseId]);
    expect(plane.deadlineJobs.decisions).toHaveLength(decided);
  });
});
