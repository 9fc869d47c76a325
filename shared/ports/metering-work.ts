import * as z from '../zod';

/** Names one instance record: enough to read its checkpoint again. */
export const instanceRefSchema = z.object({
  tenantId: z.string().check(z.minLength(1)),
  leaseId: z.string().check(z.minLength(1)),
  instanceId: z.string().check(z.minLength(1)),
});
export type InstanceRef = z.infer<typeof instanceRefSchema>;

/** A share of a metering run handed to another invocation: charge these instances up to `atMs`. */
export const meteringWorkSchema = z.object({
  atMs: z.number().check(z.int(), z.nonnegative()),
  instances: z.array(instanceRefSchema).check(z.minLength(1)),
});
export type MeteringWork = z.infer<typeof meteringWorkSchema>;

/** Where a metering run puts the instances it has no time left for. */
export interface MeteringWorkQueue {
  defer(atMs: number, instances: readonly InstanceRef[]): Promise<void>;
}
