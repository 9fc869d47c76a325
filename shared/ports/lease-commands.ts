import * as z from '../zod';

export const leaseCommandSchema = z.object({
  /**
   * start: provision a lease admission let in after it was QUEUED (its own key, so never deduplicated against its first provision).
   * time-out: a QUEUED lease's wait has ended (sent by the scheduled admission pass, held back until then).
   */
  type: z.enum(['provision', 'start', 'release', 'expire', 'replace', 'decide', 'time-out']),
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
