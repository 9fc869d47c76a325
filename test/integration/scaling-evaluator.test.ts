import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { beforeAll, describe, expect, it } from 'vitest';
import { publishGpuSamples } from '../../local/runtime/gpu-telemetry-publisher';
import { lambdaContext } from '../../local/runtime/lambda-context';
import { scheduledEvent } from '../../local/runtime/schedules';
import { type ScalingGroupSpecInput, scalingGroupSpecSchema } from '../../shared/domain/scaling';
import type { AdmissionControl } from '../../shared/usecases/admission/queue';
import type { ScalingDeps } from '../../shared/usecases/evaluate-scaling-groups';
import { awsProbe } from '../support/aws';
import { emulatorEndpoints } from '../support/emulators';
import { subscribeToDomainEvents } from '../support/events';
import { useFreshResources } from '../support/function-env';
import { runQueuedCommands } from '../support/leases';

const MINUTE = 60_000;
const TENANT = 'tenant-scale';

let env: Record<string, string>;
let deps: ScalingDeps;
let admission: AdmissionControl;
let evaluator: typeof import('../../functions/scaling-evaluator/handler').handler;
let worker: typeof import('../../functions/lease-worker/handler').handler;
let integrator: Awaited<ReturnType<typeof subscribeToDomainEvents>>;
const cloudWatch = () => new CloudWatchClient({});

beforeAll(async () => {
  env = await useFreshResources();
  integrator = await subscribeToDomainEvents(emulatorEndpoints().events, env.EVENT_BUS_NAME ?? '');
  ({ handler: evaluator } = await import('../../functions/scaling-evaluator/handler'));
  ({ handler: worker } = await import('../../functions/lease-worker/handler'));
  const { buildPorts } = await import('../../shared/lambda/port-factory');
  const { scalingEvaluatorWiring } = await import('../../functions/scaling-evaluator/wiring');
  deps = buildPorts(scalingEvaluatorWiring, env);
  const { admissionWiring } = await import('../../functions/admission/wiring');
  admission = { ...buildPorts(admissionWiring, env), placement: deps.placement, region: deps.region };
});

const putGroup = (name: string, input: Partial<ScalingGroupSpecInput> = {}, tenantId = TENANT) =>
  deps.groups.put(
    tenantId,
    name,
    scalingGroupSpecSchema.parse({ instanceType: 'g5.xlarge', min: 1, max: 3, ...input }),
    Date.now(),
  );

/** Fires the evaluator's schedule at `atMs`, as EventBridge Scheduler would. */
const evaluateAt = (atMs: number) =>
  evaluator(
    scheduledEvent('gpurent-scaling-evaluator', atMs, 'us-east-1'),
    lambdaContext('evaluator', 60_000),
  );

const runCommands = () => runQueuedCommands(env.LEASE_COMMANDS_QUEUE_URL ?? '', worker);

/** Utilization of each instance for the minutes [from, to) before `endMs`, one sample a minute. */
async function publishUtilization(
  instances: readonly { tenantId: string; leaseId: string; instanceId: string }[],
  endMs: number,
  minutes: number,
  percent: number,
) {
  await publishGpuSamples(
    cloudWatch(),
    instances.flatMap(({ tenantId, leaseId, instanceId }) =>
      Array.from({ length: minutes }, (_, i) => ({
        tenantId,
        leaseId,
        instanceId,
        gpuIndex: 0,
        atMs: endMs - (minutes - i) * MINUTE + 5_000,
        utilizationPercent: percent,
        memoryUsedMiB: 4_000,
        memoryTotalMiB: 24_000,
        temperatureC: 60,
        powerW: 150,
      })),
    ),
  );
}

/** A member's first instance, with the lease its telemetry is published for. */
function instanceOf(
  member: { instances: readonly { tenantId: string; leaseId: string; instanceId: string }[] } | undefined,
) {
  const instance = member?.instances[0];
  if (!instance) throw new Error('the member has no instance');
  return instance;
}

async function leaseOf(leaseId: string, tenantId = TENANT) {
  const lease = await deps.leases.get(tenantId, leaseId);
  if (!lease) throw new Error(`lease ${leaseId} is gone`);
  return lease;
}

async function membersOf(name: string, tenantId = TENANT) {
  const group = await deps.groups.get(tenantId, name);
  return Promise.all((group?.members ?? []).map((m) => leaseOf(m.leaseId, tenantId)));
}

const minuteOf = (ms: number) => Math.floor(ms / MINUTE) * MINUTE;

describe('scaling evaluator against moto CloudWatch, with the real lease worker', () => {
  it('grows a group on sustained GPU load and shrinks it back when idle', async () => {
    await putGroup('web');
    const start = minuteOf(Date.now());

    // Minute 0: the group has no member yet; it launches its desired one (converging, no policy action).
    expect((await evaluateAt(start)).decisions).toEqual({ 'scale-out': 0, 'scale-in': 0, converge: 1 });
    expect(await runCommands()).toBe(1);
    const [first] = await membersOf('web');
    expect(first).toMatchObject({
      status: 'RUNNING',
      gpus: 1,
      instanceType: 'g5.xlarge',
      workload: 'inference',
    });
    const firstInstance = instanceOf(first);

    // Past the warm-up, the one GPU is busy for five minutes: one more GPU.
    const busyAt = start + 10 * MINUTE;
    await publishUtilization([firstInstance], busyAt, 5, 95);
    expect((await evaluateAt(busyAt)).decisions).toEqual({ 'scale-out': 1, 'scale-in': 0, converge: 0 });
    expect(await runCommands()).toBe(1);
    let members = await membersOf('web');
    expect(members.map((m) => m.status)).toEqual(['RUNNING', 'RUNNING']);
    expect((await deps.groups.get(TENANT, 'web'))?.desired).toBe(2);

    // Past the scale-out cooldown and the new GPU's warm-up, both idle: back to one, the newest goes.
    const idleAt = busyAt + 11 * MINUTE;
    const instances = members.map(instanceOf);
    await publishUtilization(instances, idleAt, 6, 8);
    expect((await evaluateAt(idleAt)).decisions).toEqual({ 'scale-out': 0, 'scale-in': 1, converge: 0 });
    expect(await runCommands()).toBe(1);
    members = await Promise.all(members.map((m) => leaseOf(m.leaseId)));
    expect(members.map((m) => m.status)).toEqual(['RUNNING', 'RELEASED']);
    expect(await awsProbe().instancesTagged('gpurent:lease', members[1]?.leaseId ?? '')).toHaveLength(0);
    expect((await deps.groups.get(TENANT, 'web'))?.members.map((m) => m.leaseId)).toEqual([first?.leaseId]);

    const decisions = await deps.groups.decisions(TENANT, 'web', 10);
    expect(decisions.map((d) => [d.action, d.from, d.to])).toEqual([
      ['scale-in', 2, 1],
      ['scale-out', 1, 2],
      ['none', 1, 1],
    ]);
    expect(decisions[0]?.reason).toContain('gpuUtilization < 30% for 5 datapoints (8%, 8%, 8%, 8%, 8%)');
    expect(decisions[1]).toMatchObject({
      observations: expect.arrayContaining([
        { rule: 'scaleOut', metric: 'gpuUtilization', values: [95, 95, 95] },
      ]),
      launched: [members[1]?.leaseId],
    });
  });

  it('does nothing on silence: a GPU that stops reporting is not idle', async () => {
    await putGroup('quiet', { min: 1, desired: 2 });
    const start = minuteOf(Date.now());
    await evaluateAt(start);
    await runCommands();
    const members = await membersOf('quiet');
    expect(members).toHaveLength(2);

    // Half an hour later nobody has published anything: no scale-in, however long the silence,
    // but each silent GPU is reported unhealthy, once.
    const silent = await evaluateAt(start + 30 * MINUTE);
    expect(silent.unhealthyGpus).toBeGreaterThanOrEqual(2);
    expect((await evaluateAt(start + 31 * MINUTE)).unhealthyGpus).toBe(0);
    const unhealthy = (await integrator.drain()).filter((e) => e['detail-type'] === 'GpuUnhealthy');
    expect(unhealthy).toHaveLength(silent.unhealthyGpus);
    for (const member of members) {
      expect(unhealthy.map((e) => e.detail)).toContainEqual(
        expect.objectContaining({
          tenantId: TENANT,
          leaseId: member.leaseId,
          instanceId: member.instances[0]?.instanceId,
          gpuIndex: 0,
          status: 'silent',
          reason: expect.stringMatching(/^no datapoint for \d+ minutes$/),
        }),
      );
    }
    expect(await runCommands()).toBe(0);
    expect((await deps.groups.get(TENANT, 'quiet'))?.lastEvaluation?.reason).toContain('no recent datapoint');
    expect((await membersOf('quiet')).map((m) => m.status)).toEqual(['RUNNING', 'RUNNING']);
  });

  it('lets only one of two overlapping evaluations act on a group', async () => {
    await putGroup('racy', { min: 2, max: 4 });
    const { evaluateScalingGroups } = await import('../../shared/usecases/evaluate-scaling-groups');
    const at = minuteOf(Date.now());
    const [a, b] = await Promise.all([evaluateScalingGroups(deps, at), evaluateScalingGroups(deps, at)]);

    expect(a.launched + b.launched).toBe(2);
    expect(a.outcomes['claimed-elsewhere'] + b.outcomes['claimed-elsewhere']).toBeGreaterThanOrEqual(1);
    expect((await deps.groups.get(TENANT, 'racy'))?.members).toHaveLength(2);
    expect(await runCommands()).toBe(2);
  });

  it('deletes a group by releasing every member, and stops evaluating it', async () => {
    await putGroup('gone', { min: 2, max: 2 });
    const at = minuteOf(Date.now());
    await evaluateAt(at);
    await runCommands();
    const members = await membersOf('gone');
    expect(members.map((m) => m.status)).toEqual(['RUNNING', 'RUNNING']);

    const { deleteScalingGroup } = await import('../../shared/usecases/scaling-groups');
    const released = await deleteScalingGroup(deps, TENANT, 'gone');
    expect(released.sort()).toEqual(members.map((m) => m.leaseId).sort());
    expect(await runCommands()).toBe(2);
    for (const member of members) expect((await leaseOf(member.leaseId)).status).toBe('RELEASED');
    expect(await deps.groups.get(TENANT, 'gone')).toBeUndefined();

    await evaluateAt(at + 2 * MINUTE);
    expect(await runCommands()).toBe(0);
  });

  it("queues a scale-out at the tenant's quota, says so, adds no member while it waits, and runs it once the quota frees", async () => {
    const tenant = 'tenant-scale-capped';
    const oneGpu = { maxGpus: 1, maxHourlyMicroUsd: 100_000_000, maxGpusByMode: {}, weight: 1 };
    const { setTenantQuota } = await import('../../shared/usecases/admission/quotas');
    await setTenantQuota(admission, tenant, oneGpu);
    await putGroup('capped', {}, tenant);
    // An hour on: the other tests' groups have no datapoints then and leave the counts alone.
    const start = minuteOf(Date.now()) + 60 * MINUTE;
    await evaluateAt(start);
    expect(await runCommands()).toBe(1);
    const [first] = await membersOf('capped', tenant);
    expect(first?.status).toBe('RUNNING');
    const firstInstance = instanceOf(first);

    // Busy past the warm-up: the policy scales out, and the lease worker queues the new member for quota.
    const busyAt = start + 10 * MINUTE;
    await publishUtilization([firstInstance], busyAt, 5, 95);
    expect((await evaluateAt(busyAt)).decisions).toEqual({ 'scale-out': 1, 'scale-in': 0, converge: 0 });
    expect(await runCommands()).toBe(1);
    const second = (await membersOf('capped', tenant))[1];
    expect(second).toMatchObject({ status: 'QUEUED', queue: { reason: 'quota', position: 1 } });

    // The next evaluation records that the scale-out waits; it launches nothing in its place.
    expect(await evaluateAt(busyAt + MINUTE)).toMatchObject({ launched: 0, released: 0 });
    const waiting = [
      expect.objectContaining({
        leaseId: second?.leaseId,
        reason: 'quota',
        position: 1,
        estimateBasis: 'default',
      }),
    ];
    const [noted] = await deps.groups.decisions(tenant, 'capped', 10);
    expect(noted).toMatchObject({ action: 'none', from: 2, to: 2, launched: [], waiting });
    expect(noted?.reason).toContain(
      `1 GPU waiting in the admission queue: ${second?.leaseId} (quota, position 1)`,
    );
    expect((await deps.groups.get(tenant, 'capped'))?.lastEvaluation?.waiting).toEqual(waiting);

    // Still busy past the cooldown: no scale-out while it waits, no new member, no command.
    const laterAt = busyAt + 7 * MINUTE;
    await publishUtilization([firstInstance], laterAt, 7, 95);
    const later = await evaluateAt(laterAt);
    expect(later).toMatchObject({ launched: 0, decisions: { 'scale-out': 0, 'scale-in': 0, converge: 0 } });
    expect(await runCommands()).toBe(0);
    const held = await deps.groups.get(tenant, 'capped');
    expect(held?.members).toHaveLength(2);
    expect(held?.desired).toBe(2);
    expect(held?.lastEvaluation?.reason).toContain(
      'but 1 GPU asked for earlier still waits in the admission queue',
    );
    expect(await deps.groups.decisions(tenant, 'capped', 10)).toHaveLength(3);

    // The quota frees: the pass admits the member, its start command launches it.
    await setTenantQuota(admission, tenant, { ...oneGpu, maxGpus: 2 });
    expect(await runCommands()).toBe(1);
    expect((await leaseOf(second?.leaseId ?? '', tenant)).status).toBe('RUNNING');
    // Nothing waits now, and the GPU is still busy: the policy may scale out again.
    await evaluateAt(laterAt + MINUTE);
    const [cleared] = await deps.groups.decisions(tenant, 'capped', 10);
    expect(cleared).toMatchObject({ atMs: laterAt + MINUTE, action: 'scale-out', from: 2, to: 3 });
    expect(cleared?.waiting).toBeUndefined();
    expect((await membersOf('capped', tenant)).map((m) => m.status)).toEqual([
      'RUNNING',
      'RUNNING',
      'PENDING',
    ]);
    // Its lease waits at the raised quota in turn.
    expect(await runCommands()).toBe(1);
    expect((await membersOf('capped', tenant))[2]?.status).toBe('QUEUED');
  });
});
