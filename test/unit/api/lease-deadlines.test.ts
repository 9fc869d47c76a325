import { describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../../functions/api/http';
import { leaseBody } from '../../../functions/api/lease-view';
import type { ApiContext } from '../../../functions/api/routes/context';
import { postLease } from '../../../functions/api/routes/leases';
import { ClientError } from '../../../shared/client-error';
import { createLease } from '../../../shared/usecases/create-lease';
import { fakeControlPlane, T0 } from '../../support/fakes/control-plane';
import { DEFAULT_TYPE, TENANT } from '../../support/fakes/leases';

const MIN = 60_000;
const at = (ms: number) => new Date(ms).toISOString();
const task = { command: 'python train.py' };

/** POST /v1/leases through the real route and the real use case, on the fake control plane's clock. */
function api() {
  const plane = fakeControlPlane();
  // The route reads only createLeaseOnce: the rest of the API's dependencies play no part here.
  const ctx = {
    deps: plane,
    createLeaseOnce: ({ request }) => createLease(plane, request, DEFAULT_TYPE),
  } as Pick<ApiContext, 'createLeaseOnce'> as ApiContext;
  const post = (body: unknown) =>
    postLease(
      {
        headers: { 'idempotency-key': 'deadline-key-1' },
        body: JSON.stringify(body),
        requestContext: { authorizer: { jwt: { claims: { 'custom:tenant': TENANT } } } },
      } as unknown as ApiEvent,
      ctx,
    );
  return { plane, post };
}

async function refusal(body: unknown) {
  const { plane, post } = api();
  const error = await post(body).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ClientError);
  // Nothing written: no lease, no provisioning queued, no event.
  expect((await plane.leases.list(TENANT, 10)).leases).toEqual([]);
  expect(plane.commands.sent).toEqual([]);
  expect(plane.events.ofType('LeaseRequested')).toEqual([]);
  const { status, code, details } = error as ClientError;
  return { status, code, paths: details.map((d) => d.path) };
}

describe('POST /v1/leases with a task deadline', () => {
  it.each([
    ['a deadline in the past', { deadline: at(T0 - MIN), workMinutes: 60 }, 'DEADLINE_IN_PAST'],
    ['a deadline at now', { deadline: at(T0), workMinutes: 60 }, 'DEADLINE_IN_PAST'],
    [
      'a deadline before now plus the work',
      { deadline: at(T0 + 59 * MIN), workMinutes: 60 },
      'DEADLINE_BEFORE_WORK',
    ],
  ])('refuses %s with its code, judged on the injected clock', async (_, fields, code) => {
    expect(await refusal({ workload: 'training', gpus: 1, task: { ...task, ...fields } })).toEqual({
      status: 400,
      code,
      paths: ['task.deadline'],
    });
  });

  it.each([
    ['fractional work', { workMinutes: 1.5 }, 'task.workMinutes'],
    ['no work', { workMinutes: 0 }, 'task.workMinutes'],
    ['more than a month of work', { workMinutes: 43_201 }, 'task.workMinutes'],
    ['a fractional restart', { workMinutes: 60, restartMinutes: 2.5 }, 'task.restartMinutes'],
    ['a negative restart', { workMinutes: 60, restartMinutes: -1 }, 'task.restartMinutes'],
    ['a restart over three hours', { workMinutes: 60, restartMinutes: 181 }, 'task.restartMinutes'],
  ])('refuses %s: VALIDATION_FAILED naming the field', async (_, fields, path) => {
    const deadline = at(T0 + 40 * 24 * 60 * MIN);
    expect(await refusal({ workload: 'training', gpus: 1, task: { ...task, deadline, ...fields } })).toEqual({
      status: 400,
      code: 'VALIDATION_FAILED',
      paths: [path],
    });
  });

  it('refuses a deadline without its work, and work without a deadline', async () => {
    const deadline = at(T0 + 24 * 60 * MIN);
    expect(await refusal({ workload: 'training', gpus: 1, task: { ...task, deadline } })).toMatchObject({
      code: 'VALIDATION_FAILED',
      paths: ['task.workMinutes'],
    });
    expect(
      await refusal({ workload: 'training', gpus: 1, task: { ...task, workMinutes: 60 } }),
    ).toMatchObject({
      code: 'VALIDATION_FAILED',
      paths: ['task.deadline'],
    });
  });

  it('refuses a deadline on a lease without a task, and one with mode on-demand forced', async () => {
    const fields = { deadline: at(T0 + 24 * 60 * MIN), workMinutes: 60 };
    expect(await refusal({ workload: 'training', gpus: 1, ...fields })).toEqual({
      status: 400,
      code: 'DEADLINE_WITHOUT_TASK',
      paths: ['deadline'],
    });
    expect(
      await refusal({ workload: 'training', gpus: 1, mode: 'on-demand', task: { ...task, ...fields } }),
    ).toEqual({ status: 400, code: 'DEADLINE_WITH_ON_DEMAND', paths: ['task.deadline'] });
  });

  it('stores the deadline on the task, the restart defaulting to 5 minutes, and shows it on the lease', async () => {
    const { plane, post } = api();
    const deadline = at(T0 + 48 * 60 * MIN);
    const response = await post({
      workload: 'training',
      gpus: 1,
      mode: 'spot',
      task: { ...task, deadline, workMinutes: 600 },
    });
    expect(response.statusCode).toBe(202);
    const [lease] = (await plane.leases.list(TENANT, 10)).leases;
    expect(lease?.task?.spec).toMatchObject({ deadline, workMinutes: 600, restartMinutes: 5 });
    if (!lease) throw new Error('no lease stored');

    expect(leaseBody(lease).task).toMatchObject({ deadline, workMinutes: 600, restartMinutes: 5 });
    expect(leaseBody(lease).task).not.toHaveProperty('progress');
    const view = leaseBody(lease, { changesOf: () => [], nowMs: T0 + MIN });
    expect(view.task).toMatchObject({
      deadline,
      workMinutes: 600,
      restartMinutes: 5,
      progress: { savedMinutes: 0, unsavedMinutes: 0, percent: 0 },
    });
    expect(view.task).not.toHaveProperty('decision');

    // An attempt running for 65 minutes: 5 of restart, 60 of work, none saved by a checkpoint yet.
    const attempt = { attempt: 1, instanceId: 'i-1', status: 'RUNNING' as const, startedAtMs: T0 };
    const running = { ...lease, task: { ...lease.task, attempts: [attempt] } } as typeof lease;
    expect(leaseBody(running, { changesOf: () => [], nowMs: T0 + 65 * MIN }).task).toMatchObject({
      progress: { savedMinutes: 0, unsavedMinutes: 60, percent: 0 },
    });
  });

  it('leaves a task without a deadline as it was', async () => {
    const { plane, post } = api();
    await post({ workload: 'training', gpus: 1, mode: 'on-demand', task });
    const [lease] = (await plane.leases.list(TENANT, 10)).leases;
    expect(lease?.task?.spec).not.toHaveProperty('deadline');
    expect(lease && leaseBody(lease).task).not.toHaveProperty('restartMinutes');
  });
});
