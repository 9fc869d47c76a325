import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../../functions/api/openapi';
import { API_ROUTES, isPublicRoute } from '../../../functions/api/route-keys';
import { LOCAL_TOKEN_PATH } from '../../../local/runtime/token-minting';

describe('OpenAPI document', () => {
  it('in docs/ is the one the API serves (regenerate with npm run openapi)', () => {
    const committed = JSON.parse(
      readFileSync(new URL('../../../docs/openapi.json', import.meta.url), 'utf8'),
    );
    expect(committed).toEqual(JSON.parse(JSON.stringify(openApiDocument)));
  });

  it('describes every route, and marks exactly the public ones as needing no token', () => {
    const documented = Object.entries(openApiDocument.paths).flatMap(([path, operations]) =>
      Object.entries(operations).map(([method, operation]) => ({
        key: `${method.toUpperCase()} ${path}`,
        public:
          Array.isArray((operation as { security?: unknown[] }).security) &&
          (operation as { security: unknown[] }).security.length === 0,
      })),
    );
    expect(documented.sort((a, b) => a.key.localeCompare(b.key))).toEqual(
      API_ROUTES.map((r) => ({ key: r.key, public: isPublicRoute(r) })).sort((a, b) =>
        a.key.localeCompare(b.key),
      ),
    );
  });

  it("has no token-minting path: that is the local gateway's alone, never an API route", () => {
    expect(Object.keys(openApiDocument.paths).filter((path) => path.startsWith(LOCAL_TOKEN_PATH))).toEqual(
      [],
    );
    expect(API_ROUTES.filter((route) => route.key.includes(LOCAL_TOKEN_PATH))).toEqual([]);
    expect(JSON.stringify(openApiDocument)).not.toContain(LOCAL_TOKEN_PATH);
  });

  it('documents the create body from the validator itself', () => {
    const schema = openApiDocument.components.schemas.CreateLeaseRequest as {
      properties: Record<string, unknown>;
      required: string[];
    };
    expect(Object.keys(schema.properties).sort()).toEqual([
      'dataGb',
      'dataRegion',
      'durationMinutes',
      'gpuModel',
      'gpus',
      'image',
      'instanceType',
      'maxHourlyPrice',
      'maxWaitMinutes',
      'mode',
      'priority',
      'project',
      'regions',
      'task',
      'workload',
    ]);
    expect(schema.required.sort()).toEqual(['gpus', 'workload']);
  });

  type Response = { content?: Record<string, { schema?: unknown }> };
  type DocOperation = {
    operationId: string;
    security?: unknown[];
    parameters?: unknown[];
    responses: Record<string, Response>;
  };
  const operations = Object.values(openApiDocument.paths).flatMap(
    (byMethod) => Object.values(byMethod) as unknown as DocOperation[],
  );

  it("documents API Gateway's own 401 body on every protected operation, and only there", () => {
    for (const operation of operations) {
      const unauthorized = operation.responses['401'];
      if (operation.security?.length === 0) expect(unauthorized).toBeUndefined();
      else
        expect(unauthorized?.content?.['application/json']?.schema, operation.operationId).toEqual({
          $ref: '#/components/schemas/GatewayError',
        });
    }
    expect(openApiDocument.components.schemas.GatewayError).toMatchObject({ required: ['message'] });
  });

  it('gives every answer with a body a schema', () => {
    const bodiless = operations.flatMap((operation) =>
      Object.entries(operation.responses)
        .filter(([status, response]) => status !== '204' && !Object.values(response.content ?? {})[0]?.schema)
        .map(([status]) => `${operation.operationId} ${status}`),
    );
    expect(bodiless).toEqual([]);
  });

  it('requires what the API always sends: the error envelope, the id of a new lease', () => {
    const { Error: error, Lease: lease } = openApiDocument.components.schemas as Record<
      string,
      { required?: string[] }
    >;
    expect(error?.required).toEqual(['error']);
    expect(lease?.required).toEqual(expect.arrayContaining(['leaseId', 'status', 'instances', 'createdAt']));
    const accepted = operations.find((o) => o.operationId === 'createLease')?.responses['202'];
    expect(accepted?.content?.['application/json']?.schema).toMatchObject({
      required: ['leaseId', 'status'],
    });
  });

  it('puts no `default` in what a client sends, so a generated client never has to send a defaulted field', () => {
    const requestSchemas = operations.flatMap((operation) => [
      ...(operation.parameters ?? []),
      ...Object.values(
        ((operation as { requestBody?: { content: Record<string, { schema: { $ref?: string } }> } })
          .requestBody?.content ?? {}) as Record<string, { schema: { $ref?: string } }>,
      ).map(({ schema }) =>
        schema.$ref
          ? (openApiDocument.components.schemas as Record<string, unknown>)[
              schema.$ref.split('/').pop() ?? ''
            ]
          : schema,
      ),
    ]);
    expect(requestSchemas.length).toBeGreaterThan(10);
    expect(JSON.stringify(requestSchemas)).not.toContain('"default"');
  });

  it('documents GPU counts per instance as numbers: fractional-GPU types have fractions', () => {
    const reservation = openApiDocument.components.schemas.Reservation as {
      properties: Record<string, { type: string }>;
    };
    expect(reservation.properties.gpusPerInstance?.type).toBe('number');
    expect(reservation.properties.committedGpus?.type).toBe('number');
  });
});
