import type { DOMAIN_EVENTS, DomainEventType } from '../events/registry';
import type * as z from '../zod';

/**
 * Events integrators receive on the gpurent bus; `detail-type` is `type`. The
 * union is derived from the registry (shared/events/registry.ts): an event
 * type without a schema does not type-check.
 */
export type DomainEvent = {
  readonly [Type in DomainEventType]: {
    readonly type: Type;
    readonly tenantId: string;
    readonly detail: z.input<(typeof DOMAIN_EVENTS)[Type]['detail']>;
  };
}[DomainEventType];

export interface DomainEventPublisher {
  publish(events: readonly DomainEvent[]): Promise<void>;
}
