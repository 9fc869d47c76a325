import * as z from '../zod';

export const leaseCommandSchema = z.object({
  /**
   * start: provision a lease admission let in after it was QUEUED (its own key, so never deduplicated against its first provision).
   * time-out: a QUEUED lease's wait has ended (sent by the scheduled admission pass, held back until then).
   * abandon: the lease's provision (or start) command was dead-lettered; the reconciler found it there,
   * and the lease FAILS if it is still PENDING (its admission hold freed).
   */
  type: z.enum(['provision', 'start', 'release', 'expire', 'replace', 'decide', 'time-out', 'abandon']),
  tenantId: z.string().check(z.minLength(1)),
  leaseId: z.string().check(z.minLength(1)),
  /** replace: the interrupted instance whose GPUs are placed again. */
  instanceId: z.optional(z.string().check(z.minLength(1))),
  /** decide: the deadline schedule's instant; each look is a command of its own (idempotency key). */
  atMs: z.optional(z.number().check(z.int(), z.nonnegative())),
});
export type LeaseCommand = z.infer<typeof leaseCommandSchema>;

/** The queue that drives the lease worker. */
export interface LeaseCommandQueue {
  /** `delaySeconds` holds the command back (a replacement waits for the reclaim). */
  send(command: LeaseCommand, options?: { delaySeconds?: number }): Promise<void>;
}

/** A lease command its queue gave up on (moved to the dead-letter queue after its receives). */
export interface DeadLetter {
  /** Undefined when the body is no lease command (nothing to act on). */
  readonly command: LeaseCommand | undefined;
  readonly receipt: string;
}

/** The lease-commands dead-letter queue, as the reconciler drains it. */
export interface DeadLetteredCommands {
  /**
   * Up to `max` dead-lettered commands, each hidden from the next receives
   * for a while: one left where it is (not removed) shows again after that.
   */
  receive(max: number): Promise<DeadLetter[]>;
  /** The command was dealt with: it leaves the dead-letter queue. */
  remove(letter: DeadLetter): Promise<void>;
}
