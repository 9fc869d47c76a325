/** Events integrators receive on the gpurent bus; `detail-type` is `type`. */
export interface DomainEvent {
  readonly type:
    | 'LeaseRequested'
    | 'LeaseRunning'
    | 'LeaseReleased'
    | 'LeaseFailed'
    | 'OrphanInstanceTerminated'
    | 'LeaseInterrupted'
    | 'LeaseReplaced';
  readonly tenantId: string;
  readonly detail: Readonly<Record<string, unknown>>;
}

export interface DomainEventPublisher {
  publish(events: readonly DomainEvent[]): Promise<void>;
}
