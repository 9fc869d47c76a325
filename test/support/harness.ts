import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyStructuredResultV2, SQSEvent } from 'aws-lambda';
import { expect } from 'vitest';
import { apiEvent } from '../../local/runtime/api-event';
import { lambdaContext } from '../../local/runtime/lambda-context';
import { scheduledEvent } from '../../local/runtime/schedules';
import type { LeaseInstance } from '../../shared/domain/lease';
import { storesOf, useFreshResources } from './function-env';
import { runQueuedCommands, sqsRecord } from './leases';

export interface ApiCall {
  readonly body?: unknown;
  /** Path parameters, e.g. `{ name: 'gpu' }` for `/v1/budgets/{name}`. */
  readonly params?: Record<string, string>;
  readonly query?: Record<string, string>;
  readonly claims?: Record<string, string>;
}

/**
 * The real handlers over fresh resources on the emulators, driven the way AWS
 * drives them: API Gateway events, the lease worker fed the command the API
 * queued, metering ticks with their on-success destination (the budget evaluator),
 * the deadline schedule with the commands it queues, and the scheduled admission pass.
 */
export async function startHarness() {
  const env = await useFreshResources();
  const api = (await import('../../functions/api/handler')).handler;
  const worker = (await import('../../functions/lease-worker/handler')).handler;
  const metering = (await import('../../functions/metering/handler')).handler;
  const evaluator = (await import('../../functions/budget-evaluator/handler')).handler;
  const deadlineSchedule = (await import('../../functions/deadline-schedule/handler')).handler;
  const admission = (await import('../../functions/admission/handler')).handler;
  const stores = await storesOf(env);

  async function call(tenant: string, routeKey: string, request: ApiCall = {}) {
    const [, template = ''] = routeKey.split(' ');
    const path = Object.entries(request.params ?? {}).reduce(
      (built, [name, value]) => built.replace(`{${name}}`, value),
      template,
    );
    const result = (await api(
      apiEvent({
        routeKey,
        path,
        headers: { 'content-type': 'application/json', 'idempotency-key': `harness-${randomUUID()}` },
        pathParameters: request.params,
        query: request.query,
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        claims: { 'custom:tenant': tenant, ...request.claims },
      }),
      lambdaContext('api', 29_000),
    )) as APIGatewayProxyStructuredResultV2;
    const isJson = String(result.headers?.['content-type'] ?? '').startsWith('application/json');
    return {
      status: result.statusCode,
      body: isJson && result.body ? JSON.parse(result.body) : result.body,
      headers: result.headers ?? {},
    };
  }

  /** POST a lease, run the worker on its provision command, and return its instances. */
  async function runningLease(tenant: string, body: Record<string, unknown>) {
    const created = await call(tenant, 'POST /v1/leases', { body });
    expect(created.status).toBe(202);
    const command = { type: 'provision', tenantId: tenant, leaseId: created.body.leaseId };
    const event: SQSEvent = { Records: [sqsRecord(command)] };
    await worker(event, lambdaContext('lease-worker', 120_000));
    const lease = await stores.leases.get(tenant, created.body.leaseId);
    expect(lease?.status).toBe('RUNNING');
    return {
      leaseId: String(created.body.leaseId),
      instances: [...(lease?.instances ?? [])] as LeaseInstance[],
    };
  }

  /** A metering tick alone (no budget evaluation after it). */
  async function tick(atMs: number) {
    const event = scheduledEvent('metering', atMs, 'us-east-1');
    await metering(event, lambdaContext('metering', 60_000));
    return event;
  }

  /** A metering tick, then its on-success destination racing `parallel` scheduled evaluations. */
  async function tickAndEvaluate(atMs: number, parallel = 0) {
    const tickEvent = await tick(atMs);
    const destination = { version: '1.0', requestPayload: tickEvent, responsePayload: {} };
    await Promise.all([
      evaluator(destination, lambdaContext('budgets', 60_000)),
      ...Array.from({ length: parallel }, () =>
        evaluator(scheduledEvent('budgets', atMs, 'us-east-1'), lambdaContext('budgets', 60_000)),
      ),
    ]);
  }

  /** The deadline schedule at `atMs`, then every command it queued run by the worker; returns how many ran. */
  async function deadlineTick(atMs: number) {
    await deadlineSchedule(
      scheduledEvent('deadline-schedule', atMs, 'us-east-1'),
      lambdaContext('deadline', 30_000),
    );
    return runQueuedCommands(env.LEASE_COMMANDS_QUEUE_URL ?? '', worker);
  }

  /** The scheduled admission pass, as its schedule fires it at `atMs`. */
  async function admissionPass(atMs: number) {
    return admission(scheduledEvent('admission', atMs, 'us-east-1'), lambdaContext('admission', 55_000));
  }

  return { env, stores, call, runningLease, tick, tickAndEvaluate, deadlineTick, admissionPass };
}

export type Harness = Awaited<ReturnType<typeof startHarness>>;
