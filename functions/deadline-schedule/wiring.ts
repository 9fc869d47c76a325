import { openDeadlineJobs } from '../../shared/lambda/deadlines';
import { leaseCommandQueue } from '../../shared/lambda/messaging';
import type { Wiring } from '../../shared/lambda/port-factory';

/**
 * The deadline schedule's ports: the open jobs (read from the leases table's
 * sparse index) and the lease commands queue. The worker does the deciding.
 */
export const deadlineScheduleWiring = {
  openDeadlineJobs: openDeadlineJobs(),
  commands: leaseCommandQueue(),
} satisfies Wiring;
