import { domainEventPublisher, leaseCommandQueue } from '../../shared/lambda/messaging';
import { ec2Compute, placementSettings } from '../../shared/lambda/placement';
import type { Wiring } from '../../shared/lambda/port-factory';
import { leaseRepository } from '../../shared/lambda/stores';
import { taskRunning } from '../../shared/lambda/tasks';
import { homeRegion, wallClock } from '../../shared/lambda/values';

/**
 * The task-events handler's ports: it finds the invocation's lease by its
 * instance, moves the task on (a retry is sent through SSM), and releases the
 * lease when its task ends (onExit release) through a release command.
 */
export const taskEventsWiring = {
  leases: leaseRepository('readWrite'),
  compute: ec2Compute('instances'),
  placement: placementSettings(),
  tasks: taskRunning(),
  commands: leaseCommandQueue(),
  events: domainEventPublisher(),
  region: homeRegion(),
  now: wallClock(),
} satisfies Wiring;
