import { ec2Compute, placementSettings } from '../../shared/lambda/placement';
import type { Wiring } from '../../shared/lambda/port-factory';
import { fleetStorageLedger, imageRepository, warmPoolRepository } from '../../shared/lambda/stores';
import { controlPlaneMetrics, priceCatalogValue, wallClock } from '../../shared/lambda/values';

/**
 * The warm-pool filler's ports: the pools and their machines, the images they
 * are built from, and EC2 to launch, stop and end machines. It never starts one:
 * only a lease does. It meters the stopped machines' volumes to the fleet.
 */
export const warmPoolFillerWiring = {
  warmPools: warmPoolRepository('readWrite'),
  fleetStorage: fleetStorageLedger('readWrite'),
  images: imageRepository('read'),
  compute: ec2Compute('fleet', 'launch', 'instances', 'terminate', 'warmStop'),
  placement: placementSettings(),
  metrics: controlPlaneMetrics(),
  catalog: priceCatalogValue(),
  now: wallClock(),
} satisfies Wiring;
