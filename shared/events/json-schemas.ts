import { EVENT_SOURCE } from '../adapters/eventbridge-publisher';
import * as z from '../zod';
import { DOMAIN_EVENT_TYPES, DOMAIN_EVENTS, type DomainEventType, publishedDetailSchema } from './registry';

export const EVENT_SCHEMA_BASE_URL = 'https://gpurent.dev/events/';

/** Where an event type's JSON Schema lives under docs/events/: one file per type and version. */
export const eventSchemaFileName = (type: DomainEventType) => `${type}.v${DOMAIN_EVENTS[type].version}.json`;

/**
 * The JSON Schema of an event as EventBridge delivers it to a rule's target:
 * the envelope (source, detail-type; the other envelope fields are EventBridge's)
 * around the `detail` the publisher validates with the same zod schema.
 */
export function eventJsonSchema(type: DomainEventType): Record<string, unknown> {
  const detail = z.toJSONSchema(publishedDetailSchema(type), { target: 'draft-2020-12', io: 'output' });
  const { $schema, ...detailSchema } = detail;
  return {
    $schema,
    $id: `${EVENT_SCHEMA_BASE_URL}${eventSchemaFileName(type)}`,
    title: `${type} v${DOMAIN_EVENTS[type].version}`,
    description: DOMAIN_EVENTS[type].description,
    type: 'object',
    required: ['source', 'detail-type', 'detail'],
    properties: {
      source: { const: EVENT_SOURCE },
      'detail-type': { const: type },
      detail: detailSchema,
    },
  };
}

/** Every registered event's schema, keyed by its file name in docs/events/. */
export function eventJsonSchemas(): Record<string, Record<string, unknown>> {
  return Object.fromEntries(
    DOMAIN_EVENT_TYPES.map((type) => [eventSchemaFileName(type), eventJsonSchema(type)]),
  );
}
