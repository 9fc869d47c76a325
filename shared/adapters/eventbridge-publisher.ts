import { type EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { publishedDetail } from '../events/envelope';
import type { DomainEvent, DomainEventPublisher } from '../ports/domain-events';

export const EVENT_SOURCE = 'gpurent';
/** PutEvents takes at most ten entries a call. */
const MAX_ENTRIES = 10;

export class EventPublishError extends Error {
  constructor(readonly failedCount: number) {
    super(`${failedCount} domain event(s) were not accepted by EventBridge`);
    this.name = 'EventPublishError';
  }
}

export class EventBridgePublisher implements DomainEventPublisher {
  constructor(
    private readonly client: EventBridgeClient,
    private readonly busName: string,
  ) {}

  /** Every event is validated against its registered schema before anything is sent. */
  async publish(events: readonly DomainEvent[]): Promise<void> {
    const details = events.map((event) => JSON.stringify(publishedDetail(event)));
    for (let start = 0; start < events.length; start += MAX_ENTRIES) {
      const batch = events.slice(start, start + MAX_ENTRIES);
      const result = await this.client.send(
        new PutEventsCommand({
          Entries: batch.map((event, index) => ({
            EventBusName: this.busName,
            Source: EVENT_SOURCE,
            DetailType: event.type,
            Detail: details[start + index],
          })),
        }),
      );
      if (result.FailedEntryCount) throw new EventPublishError(result.FailedEntryCount);
    }
  }
}
