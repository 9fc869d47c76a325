import { createHash } from 'node:crypto';
import { DOMAIN_EVENTS, isDomainEventType } from './registry';

export class InvalidDomainEventError extends Error {
  constructor(
    readonly eventType: string,
    readonly problems: readonly string[],
  ) {
    super(`Domain event ${eventType} does not match its schema: ${problems.join('; ')}`);
    this.name = 'InvalidDomainEventError';
  }
}

export interface UnvalidatedEvent {
  readonly type: string;
  readonly tenantId: string;
  readonly detail: unknown;
}

/**
 * The `detail` that goes on the bus: the event's fields validated against its
 * registered schema, plus `tenantId`, `schemaVersion` and an `eventId` that is
 * a hash of the fact itself, so publishing the same fact again (a retried
 * worker, a re-run evaluation) gives integrators the same id to drop.
 */
export function publishedDetail(event: UnvalidatedEvent): Record<string, unknown> {
  if (!isDomainEventType(event.type)) {
    throw new InvalidDomainEventError(event.type, ['no schema is registered for this type']);
  }
  const definition = DOMAIN_EVENTS[event.type];
  const parsed = definition.detail.safeParse(event.detail);
  if (!parsed.success) {
    throw new InvalidDomainEventError(
      event.type,
      parsed.error.issues.map((issue) => `${issue.path.join('.') || 'detail'}: ${issue.message}`),
    );
  }
  const fields = { tenantId: event.tenantId, ...(parsed.data as Record<string, unknown>) };
  return {
    eventId: eventIdOf(event.type, definition.version, fields),
    schemaVersion: definition.version,
    ...fields,
  };
}

function eventIdOf(type: string, version: number, fields: Record<string, unknown>): string {
  const canonical = JSON.stringify([
    type,
    version,
    Object.entries(fields).sort(([a], [b]) => a.localeCompare(b)),
  ]);
  return createHash('sha256').update(canonical).digest('hex').slice(0, 32);
}
