import {
  domainEventPublisher,
  leaseCommandDeadLetters,
  leaseCommandQueue,
} from '../../shared/lambda/messaging';
import { ec2Compute, placementSettings } from '../../shared/lambda/placement';
import type { Wiring } from '../../shared/lambda/port-factory';
import {
  commitmentRepository,
  leaseRepository,
  spotPriceHistory,
  warmPoolRepository,
} from '../../shared/lambda/stores';
import { taskRunning } from '../../shared/lambda/tasks';
import { controlPlaneMetrics, homeRegion, priceCatalogValue, wallClock } from '../../shared/lambda/values';

/**
 * The reconciler's ports: EC2 against the table (terminating orphans,
 * adopting strays, stamping vanished instances), re-sent commands of stuck
 * leases (found through the open-leases index), silent tasks asked of SSM,
 * dead-lettered provisions handed back to the worker to fail, the spot
 * prices in force, and running attempts' checkpoint credentials kept fresh.
 * It launches nothing and ends no lease itself: the worker does, by command.
 */
export const reconcilerWiring = {
  leases: leaseRepository('readWrite'),
  // Records the price in force of the pools spot instances run in.
  spotPrices: spotPriceHistory('readWrite'),
  compute: ec2Compute('instances', 'terminate', 'spotPrices'),
  placement: placementSettings(),
  // An adopted stray is priced like a launch (reserved ones by their commitment).
  commitments: commitmentRepository('read'),
  // Stopped warm machines (and initialising ones) are no orphans.
  warmPools: warmPoolRepository('read'),
  events: domainEventPublisher(),
  commands: leaseCommandQueue(),
  // The lease-commands DLQ, drained for provisions the queue gave up on.
  deadLetters: leaseCommandDeadLetters(),
  // Each repair counted on the operator dashboard.
  metrics: controlPlaneMetrics(),
  catalog: priceCatalogValue(),
  region: homeRegion(),
  now: wallClock(),
  // Re-sends running attempts' checkpoint credentials (an hour at most) before they expire.
  tasks: taskRunning(),
} satisfies Wiring;
