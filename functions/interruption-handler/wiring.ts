import { domainEventPublisher, leaseCommandQueue } from '../../shared/lambda/messaging';
import { ec2Compute, placementSettings } from '../../shared/lambda/placement';
import type { Wiring } from '../../shared/lambda/port-factory';
import { leaseRepository, meteringLedger, spotPriceHistory } from '../../shared/lambda/stores';
import { homeRegion, priceCatalogValue, wallClock } from '../../shared/lambda/values';

/**
 * The interruption handler's ports: it finds the event's instance, marks its
 * lease interrupted (queueing the replacement) or running, and closes the bill
 * of an instance that ended.
 */
export const interruptionHandlerWiring = {
  leases: leaseRepository('readWrite'),
  ledger: meteringLedger('readWrite'),
  spotPrices: spotPriceHistory('read'),
  compute: ec2Compute('instances'),
  placement: placementSettings(),
  events: domainEventPublisher(),
  commands: leaseCommandQueue(),
  catalog: priceCatalogValue(),
  region: homeRegion(),
  now: wallClock(),
} satisfies Wiring;
