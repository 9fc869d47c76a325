import { EventBridgePublisher } from '../adapters/eventbridge-publisher';
import { SqsLeaseCommandQueue } from '../adapters/sqs-lease-command-queue';
import { priceCatalog } from '../catalog';
import { nonEmpty } from '../config';
import type { ControlPlane } from '../usecases/dependencies';
import { createEventBridgeClient, createSqsClient } from './clients';
import { powertoolsControlPlaneMetrics } from './control-plane-metrics';
import { createLeaseExpiry, type LeaseExpiryConfig, leaseExpiryConfig } from './lease-expiry';
import { createPlacement, type PlacementConfig, placementConfig } from './placement';
import { createStores, storeConfig } from './stores';

/** Environment of the functions that act on EC2: the lease worker and the reconciler. */
export const controlPlaneConfig = {
  ...placementConfig,
  ...storeConfig,
  LEASE_COMMANDS_QUEUE_URL: nonEmpty,
  EVENT_BUS_NAME: nonEmpty,
  ...leaseExpiryConfig,
};

export interface ControlPlaneConfig extends PlacementConfig, LeaseExpiryConfig {
  readonly LEASES_TABLE_NAME: string;
  readonly USAGE_TABLE_NAME: string;
  readonly SPEND_TABLE_NAME: string;
  readonly LEASE_COMMANDS_QUEUE_URL: string;
  readonly EVENT_BUS_NAME: string;
}

/** Wires every port to its AWS adapter, one client per service. */
export function createControlPlane(config: ControlPlaneConfig) {
  const { dynamoDb, leases, ledger, spend, commitments, images, spotPrices } = createStores(config);
  const { compute, placement } = createPlacement(config);
  const controlPlane: ControlPlane = {
    leases,
    ledger,
    spotPrices,
    spend,
    compute,
    placement,
    commitments,
    images,
    commands: new SqsLeaseCommandQueue(createSqsClient(), config.LEASE_COMMANDS_QUEUE_URL),
    events: new EventBridgePublisher(createEventBridgeClient(), config.EVENT_BUS_NAME),
    catalog: priceCatalog,
    region: config.AWS_REGION,
    // Read at each call (not captured), so tests can move the clock.
    now: () => Date.now(),
    expiry: createLeaseExpiry(config),
    metrics: powertoolsControlPlaneMetrics,
  };
  return { dynamoDb, controlPlane };
}
