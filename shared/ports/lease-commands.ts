import { z } from 'zod';

export const leaseCommandSchema = z.object({
  type: z.enum(['provision', 'release', 'expire']),
  tenantId: z.string().min(1),
  leaseId: z.string().min(1),
});
export type LeaseCommand = z.infer<typeof leaseCommandSchema>;

/** The queue that drives the lease worker. */
export interface LeaseCommandQueue {
  send(command: LeaseCommand): Promise<void>;
}
