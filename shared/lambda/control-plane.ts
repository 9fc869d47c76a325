import { Ec2Compute } from '../adapters/ec2-compute';
import { EventBridgePublisher } from '../adapters/eventbridge-publisher';
import { SqsLeaseCommandQueue } from '../adapters/sqs-lease-command-queue';
import { priceCatalog } from '../catalog';
import { commaList, nonEmpty } from '../config';
import type { ControlPlane } from '../usecases/dependencies';
import { createEc2Client, createEventBridgeClient, createSqsClient } from './clients';
import { powertoolsControlPlaneMetrics } from './control-plane-metrics';
import { createLeaseExpiry, type LeaseExpiryConfig, leaseExpiryConfig } from './lease-expiry';
import { createStores, storeConfig } from './stores';

/** Environment of the functions that act on EC2: the lease worker and the reconciler. */
export const controlPlaneConfig = {
  AWS_REGION: nonEmpty,
  ...storeConfig,
  LEASE_COMMANDS_QUEUE_URL: nonEmpty,
  EVENT_BUS_NAME: nonEmpty,
  LAUNCH_TEMPLATE_ID: nonEmpty,
  SUBNET_IDS: commaList,
  ...leaseExpiryConfig,
};

export interface ControlPlaneConfig extends LeaseExpiryConfig {
  readonly AWS_REGION: string;
  readonly LEASES_TABLE_NAME: string;
  readonly USAGE_TABLE_NAME: string;
  readonly SPEND_TABLE_NAME: string;
  readonly LEASE_COMMANDS_QUEUE_URL: string;
  readonly EVENT_BUS_NAME: string;
  readonly LAUNCH_TEMPLATE_ID: string;
  readonly SUBNET_IDS: readonly string[];
}

/** Wires every port to its AWS adapter, one client per service. */
export function createControlPlane(config: ControlPlaneConfig) {
  const { dynamoDb, leases, ledger, spend } = createStores(config);
  const controlPlane: ControlPlane = {
    leases,
    ledger,
    spend,
    compute: new Ec2Compute(createEc2Client(), {
      launchTemplateId: config.LAUNCH_TEMPLATE_ID,
      subnetIds: config.SUBNET_IDS,
    }),
    commands: new SqsLeaseCommandQueue(createSqsClient(), config.LEASE_COMMANDS_QUEUE_URL),
    events: new EventBridgePublisher(createEventBridgeClient(), config.EVENT_BUS_NAME),
    catalog: priceCatalog,
    region: config.AWS_REGION,
    now: Date.now,
    expiry: createLeaseExpiry(config),
    metrics: powertoolsControlPlaneMetrics,
  };
  return { dynamoDb, controlPlane };
}
