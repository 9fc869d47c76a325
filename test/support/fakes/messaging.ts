import { publishedDetail } from '../../../shared/events/envelope';
import type { DomainEvent, DomainEventPublisher } from '../../../shared/ports/domain-events';
import type {
  DeadLetter,
  DeadLetteredCommands,
  LeaseCommand,
  LeaseCommandQueue,
} from '../../../shared/ports/lease-commands';
import { leaseCommandSchema } from '../../../shared/ports/lease-commands';
import type { FakeClock } from './clock';
import { Faults } from './faults';

/**
 * The bus, as EventBridgePublisher uses it: every event is checked against its
 * registered schema before any is accepted (InvalidDomainEventError otherwise).
 */
export class FakeEventPublisher implements DomainEventPublisher {
  readonly faults = new Faults<'publish'>();
  readonly published: DomainEvent[] = [];

  async publish(events: readonly DomainEvent[]): Promise<void> {
    this.faults.enter('publish', [events]);
    for (const event of events) publishedDetail(event);
    this.published.push(...events);
  }

  /** The published events of one type, in order. */
  ofType<Type extends DomainEvent['type']>(type: Type): Extract<DomainEvent, { type: Type }>[] {
    return this.published.filter((e): e is Extract<DomainEvent, { type: Type }> => e.type === type);
  }

  types(): string[] {
    return this.published.map((e) => e.type);
  }
}

export interface QueuedCommand {
  readonly command: LeaseCommand;
  /** When the queue makes it visible (a delayed replacement waits for the reclaim). */
  readonly visibleAtMs: number;
}

/** The lease worker's queue: commands must parse as the worker parses them; `take` drains them. */
export class FakeLeaseCommandQueue implements LeaseCommandQueue {
  readonly faults = new Faults<'send'>();
  readonly sent: QueuedCommand[] = [];

  constructor(private readonly clock: FakeClock) {}

  async send(command: LeaseCommand, options: { delaySeconds?: number } = {}): Promise<void> {
    this.faults.enter('send', [command, options]);
    const delaySeconds = options.delaySeconds ?? 0;
    if (!Number.isInteger(delaySeconds) || delaySeconds < 0 || delaySeconds > 900) {
      throw new Error(`SQS DelaySeconds must be an integer in 0..900, got ${delaySeconds}`);
    }
    this.sent.push({
      command: leaseCommandSchema.parse(command),
      visibleAtMs: this.clock.now() + delaySeconds * 1000,
    });
  }

  /** The commands sent so far, without their delays. */
  commands(): LeaseCommand[] {
    return this.sent.map((q) => q.command);
  }
}

/** The lease-commands DLQ: letters put here by a test, removed by the reconciler once dealt with. */
export class FakeDeadLetteredCommands implements DeadLetteredCommands {
  private readonly letters: DeadLetter[] = [];
  private next = 0;

  /** A command the queue gave up on. */
  deadLetter(command: LeaseCommand): void {
    this.next += 1;
    this.letters.push({ command, receipt: `receipt-${this.next}` });
  }

  async receive(max: number): Promise<DeadLetter[]> {
    return this.letters.slice(0, max);
  }

  async remove(letter: DeadLetter): Promise<void> {
    const at = this.letters.findIndex((l) => l.receipt === letter.receipt);
    if (at >= 0) this.letters.splice(at, 1);
  }

  /** The letters still in the queue. */
  left(): readonly DeadLetter[] {
    return [...this.letters];
  }
}
