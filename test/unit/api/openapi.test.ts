import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../../functions/api/openapi';
import { API_ROUTES, isPublicRoute } from '../../../functions/api/route-keys';

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
      'mode',
      'project',
      'regions',
      'task',
      'workload',
    ]);
    expect(schema.required.sort()).toEqual(['gpus', 'workload']);
  });
});
