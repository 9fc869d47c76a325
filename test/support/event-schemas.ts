import { readdirSync, readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';

const EVENTS_DIR = new URL('../../docs/events/', import.meta.url);

/** The committed JSON Schemas of docs/events/, by file name. */
export function committedEventSchemas(): Record<string, Record<string, unknown>> {
  return Object.fromEntries(
    readdirSync(EVENTS_DIR)
      .filter((name) => name.endsWith('.json'))
      .map((name) => [name, JSON.parse(readFileSync(new URL(name, EVENTS_DIR), 'utf8'))]),
  );
}

/**
 * Validates events as an integrator would: with a stock JSON Schema validator
 * and the committed files, not with the zod schemas they were generated from.
 */
export function integratorValidator() {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  const schemas = Object.values(committedEventSchemas());
  for (const schema of schemas) ajv.addSchema(schema);
  return (event: { 'detail-type': string; detail: Record<string, unknown> }) => {
    const schema = schemas.find(
      (s) =>
        (s.properties as Record<string, { const?: string }>)['detail-type']?.const === event['detail-type'],
    );
    if (!schema) return [`no committed schema for ${event['detail-type']}`];
    const validate = ajv.getSchema(String(schema.$id));
    if (validate?.(event)) return [];
    return (validate?.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  };
}
