import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidDomainEventError, publishedDetail } from '../../../shared/events/envelope';
import { eventJsonSchemas } from '../../../shared/events/json-schemas';
import { DOMAIN_EVENT_TYPES } from '../../../shared/events/registry';
import { committedEventSchemas, integratorValidator } from '../../support/event-schemas';

const ROOT = new URL('../../../', import.meta.url).pathname;

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

const leaseId = 'lease_01m8pkk5yyfnsn9agxndw7h54a';
const requested = {
  type: 'LeaseRequested',
  tenantId: 'acme',
  detail: { leaseId, workload: 'training', gpus: 2, instanceType: 'g5.xlarge' },
} as const;

describe('domain event registry', () => {
  it('docs/events/ holds exactly the generated JSON Schemas (regenerate with npm run events)', () => {
    expect(committedEventSchemas()).toEqual(JSON.parse(JSON.stringify(eventJsonSchemas())));
  });

  it('has a schema for every event type the code publishes', () => {
    // Events are published as object literals `{ type: 'PascalCase', ... }`; lease
    // commands and statuses are lower/upper case, so they do not match.
    const published = new Set(
      ['shared', 'functions']
        .flatMap(sourceFiles)
        .flatMap((file) =>
          [...readFileSync(join(ROOT, file), 'utf8').matchAll(/\btype: '([A-Z][a-z]+[A-Za-z]*)'/g)].map(
            (match) => match[1],
          ),
        ),
    );
    expect(published.size).toBeGreaterThan(0);
    expect([...published].filter((type) => !DOMAIN_EVENT_TYPES.includes(type as never))).toEqual([]);
  });

  it('adds eventId, schemaVersion and tenantId, and the result validates against the committed schema', () => {
    const detail = publishedDetail(requested);
    expect(detail).toMatchObject({ schemaVersion: 1, tenantId: 'acme', leaseId, gpus: 2 });
    expect(detail.eventId).toMatch(/^[0-9a-f]{32}$/);
    const errors = integratorValidator()({
      'detail-type': 'LeaseRequested',
      detail,
      source: 'gpurent',
    } as never);
    expect(errors).toEqual([]);
  });

  it('gives the same fact the same eventId and another fact another one', () => {
    const first = publishedDetail(requested).eventId;
    expect(publishedDetail({ ...requested, detail: { ...requested.detail } }).eventId).toBe(first);
    expect(publishedDetail({ ...requested, detail: { ...requested.detail, gpus: 3 } }).eventId).not.toBe(
      first,
    );
    expect(publishedDetail({ ...requested, tenantId: 'other' }).eventId).not.toBe(first);
  });

  it('refuses an unregistered type and a detail that does not match, naming the field', () => {
    expect(() => publishedDetail({ type: 'LeaseTeleported', tenantId: 'acme', detail: {} })).toThrow(
      /LeaseTeleported.*no schema is registered/,
    );
    const bad = () => publishedDetail({ ...requested, detail: { ...requested.detail, gpus: 0 } });
    expect(bad).toThrow(InvalidDomainEventError);
    expect(bad).toThrow(/gpus/);
    expect(() => publishedDetail({ ...requested, detail: { ...requested.detail, extra: 1 } })).toThrow(
      /extra/,
    );
  });

  it('rejects, through the committed schema, an event whose detail lacks its eventId', () => {
    const { eventId: _, ...detail } = publishedDetail(requested);
    const errors = integratorValidator()({
      'detail-type': 'LeaseRequested',
      detail,
      source: 'gpurent',
    } as never);
    expect(errors.join()).toMatch(/eventId/);
  });
});
