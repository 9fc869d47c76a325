import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiEvent } from '../../local/runtime/api-event';
import { lambdaContext } from '../../local/runtime/lambda-context';
import { emulatorEndpoints } from '../support/emulators';
import { subscribeToDomainEvents } from '../support/events';
import { useFreshResources } from '../support/function-env';

let integrator: Awaited<ReturnType<typeof subscribeToDomainEvents>>;
let handler: typeof import('../../functions/api/handler').handler;

beforeAll(async () => {
  const env = await useFreshResources();
  integrator = await subscribeToDomainEvents(emulatorEndpoints().events, env.EVENT_BUS_NAME ?? '');
  ({ handler } = await import('../../functions/api/handler'));
});

describe('domain events on the gpurent bus', () => {
  it('tells integrators about a new lease, with the tenant and the lease', async () => {
    const result = (await handler(
      apiEvent({
        routeKey: 'POST /v1/leases',
        path: '/v1/leases',
        headers: { 'idempotency-key': `events-${randomUUID()}` },
        body: JSON.stringify({ workload: 'inference', gpus: 2, project: 'search' }),
        claims: { 'custom:tenant': 'tenant-events' },
      }),
      lambdaContext('api', 29_000),
    )) as APIGatewayProxyStructuredResultV2;
    const { leaseId } = JSON.parse(result.body ?? '{}');

    expect(await integrator.drain()).toEqual([
      expect.objectContaining({
        source: 'gpurent',
        'detail-type': 'LeaseRequested',
        detail: {
          tenantId: 'tenant-events',
          leaseId,
          workload: 'inference',
          gpus: 2,
          instanceType: 'g5.xlarge',
          project: 'search',
          schemaVersion: 1,
          eventId: expect.stringMatching(/^[0-9a-f]{32}$/),
        },
      }),
    ]);
  });
});
