import * as z from '../zod';

/** The EC2 events gpurent reacts to, as EventBridge names them (`detail-type`). */
export const EC2_EVENT_TYPES = {
  spotWarning: 'EC2 Spot Instance Interruption Warning',
  rebalance: 'EC2 Instance Rebalance Recommendation',
  stateChange: 'EC2 Instance State-change Notification',
} as const;

const envelope = {
  id: z.string().check(z.minLength(1)),
  source: z.literal('aws.ec2'),
  region: z.string().check(z.minLength(1)),
  time: z.iso.datetime({ offset: true }),
};

/** One EC2 event from the default bus, as EventBridge delivers it to SQS. */
export const ec2EventSchema = z.discriminatedUnion('detail-type', [
  z.object({
    ...envelope,
    'detail-type': z.literal(EC2_EVENT_TYPES.spotWarning),
    detail: z.object({
      'instance-id': z.string().check(z.minLength(1)),
      'instance-action': z.optional(z.string()),
    }),
  }),
  z.object({
    ...envelope,
    'detail-type': z.literal(EC2_EVENT_TYPES.rebalance),
    detail: z.object({ 'instance-id': z.string().check(z.minLength(1)) }),
  }),
  z.object({
    ...envelope,
    'detail-type': z.literal(EC2_EVENT_TYPES.stateChange),
    detail: z.object({
      'instance-id': z.string().check(z.minLength(1)),
      state: z.string().check(z.minLength(1)),
    }),
  }),
]);
export type Ec2Event = z.infer<typeof ec2EventSchema>;

/** States in which an instance no longer runs: its bill ends at the event. */
export const ENDED_STATES = new Set(['shutting-down', 'terminated', 'stopping', 'stopped']);
