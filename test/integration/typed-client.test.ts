import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalStack, startLocalStack } from '../../local/stack';
import type { paths } from '../generated/gpurent-api';
import { emulatorEndpoints } from '../support/emulators';

/*
 * The client openapi-typescript generates from docs/openapi.json, driven by
 * openapi-fetch against the local stack: paths, parameters and bodies are
 * type-checked against the document (npm run typecheck), and the answers are
 * the ones the document promises.
 */
let stack: LocalStack;
let api: ReturnType<typeof createClient<paths>>;

beforeAll(async () => {
  stack = await startLocalStack({
    port: 0,
    endpoints: emulatorEndpoints(),
    timers: false,
    prefix: `typed${Date.now()}`,
  });
  api = createClient<paths>({ baseUrl: stack.apiUrl, headers: { authorization: `Bearer ${stack.token}` } });
});

afterAll(() => stack?.stop());

describe('the typed client generated from the OpenAPI document', () => {
  it('creates a budget and reads it back through the typed operations', async () => {
    const put = await api.PUT('/v1/budgets/{name}', {
      params: { path: { name: 'typed-client' } },
      body: { monthlyLimitUsd: 250, thresholds: [50, 100] },
    });
    expect(put.response.status).toBe(201);
    expect(put.data?.monthlyLimitUsd).toBe(250);

    const got = await api.GET('/v1/budgets/{name}', { params: { path: { name: 'typed-client' } } });
    expect(got.data).toMatchObject({ name: 'typed-client', thresholds: [50, 100], basis: 'both' });
  });

  it('asks for a lease with its Idempotency-Key and finds it in the list', async () => {
    const created = await api.POST('/v1/leases', {
      params: { header: { 'Idempotency-Key': `typed-${Date.now()}` } },
      body: { workload: 'batch', gpus: 1 },
    });
    expect(created.response.status).toBe(202);
    const leaseId = created.data?.leaseId ?? '';
    expect(leaseId).toMatch(/^lease_/);

    const listed = await api.GET('/v1/leases', { params: { query: { limit: 10 } } });
    expect(listed.data?.leases?.map((lease) => lease.leaseId)).toContain(leaseId);
  });

  it('reads usage grouped by day, a grouping the document lists', async () => {
    const usage = await api.GET('/v1/usage', { params: { query: { groupBy: 'day' } } });
    expect(usage.response.status).toBe(200);
    expect(usage.data?.groupBy).toBe('day');
  });

  it("answers an unknown lease with the document's error shape", async () => {
    const missing = await api.GET('/v1/leases/{id}', {
      params: { path: { id: 'lease_00000000000000000000000000' } },
    });
    expect(missing.response.status).toBe(404);
    // Every protected operation may also get API Gateway's own 401 body, so the client narrows first.
    const body = missing.error;
    expect(body && 'error' in body ? body.error.code : body).toBe('LEASE_NOT_FOUND');
  });
});
