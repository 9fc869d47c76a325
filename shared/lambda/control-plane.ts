import { EventBridgePublisher } from '../adapters/eventbridge-publisher';
import { SqsLeaseCommandQueue } from '../adapters/sqs-lease-command-queue';
import { priceCatalog } from '../catalog';
import { nonEmpty } from '../config';
import type { ControlPlane } from '../usecases/dependencies';
import { createEventBridgeClient, createSqsClient } from './clients';
import { createPlacement, type PlacementConfig, placementConfig } from './placement';
import { createStores, storeConfig } from './stores';

/** Environment of the functions that act on EC2: the lease worker and the reconciler. */
export const controlPlaneConfig = {
  ...placementConfig,
  ...storeConfig,
  LEASE_COMMANDS_QUEUE_URL: nonEmpty,
  EVENT_BUS_NAME: nonEmpty,
};

export interface ControlPlaneConfig extends PlacementConfig {
  readonly LEASES_TABLE_NAME: string;
  readonly USAGE_TABLE_NAME: string;
  readonly LEASE_COMMANDS_QUEUE_URL: string;
  readonly EVENT_BUS_NAME: string;
}

/** Wires every port to its AWS adapter, one client per service. */
export function createControlPlane(config: ControlPlaneConfig) {
  const { dynamoDb, leases, ledger, commitments, images } = createStores(config);
  const { compute, placement } = createPlacement(config);
  const controlPlane: ControlPlane = {
    leases,
    ledger,
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
  };
  return { dynamoDb, controlPlane };
}
