import * as z from '../../zod';
import type { CommandOutcome } from './state';

/** The event SSM puts on the default bus when a command invocation on one instance changes status. */
export const SSM_COMMAND_EVENT_TYPE = 'EC2 Command Invocation Status-change Notification';

export const commandInvocationEventSchema = z.object({
  'detail-type': z.literal(SSM_COMMAND_EVENT_TYPE),
  source: z.literal('aws.ssm'),
  region: z.string(),
  time: z.string(),
  detail: z.object({
    'command-id': z.string().check(z.minLength(1)),
    'instance-id': z.string().check(z.minLength(1)),
    status: z.string(),
    /** Only the local stand-in of the SSM agent sends it; in AWS the code is read with GetCommandInvocation. */
    'exit-code': z.optional(z.number()),
  }),
});
export type CommandInvocationEvent = z.infer<typeof commandInvocationEventSchema>;

const ENDED: Record<string, CommandOutcome> = {
  Success: 'Success',
  Failed: 'Failed',
  Cancelled: 'Cancelled',
  TimedOut: 'TimedOut',
  DeliveryTimedOut: 'TimedOut',
  ExecutionTimedOut: 'TimedOut',
  Terminated: 'Cancelled',
  Undeliverable: 'Failed',
};

/** What an invocation status means for a task: under way, ended how, or nothing yet (Pending, Delayed). */
export function commandPhase(status: string): 'in-progress' | CommandOutcome | 'pending' {
  if (status === 'InProgress') return 'in-progress';
  return ENDED[status] ?? 'pending';
}
