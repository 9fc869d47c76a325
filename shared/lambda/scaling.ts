import { CloudWatchMetricReader } from '../adapters/cloudwatch-metric-reader';
import { DynamoDbScalingGroupRepository } from '../adapters/dynamodb-scaling-group-repository';
import { EventBridgePublisher } from '../adapters/eventbridge-publisher';
import { SqsLeaseCommandQueue } from '../adapters/sqs-lease-command-queue';
import { priceCatalog } from '../catalog';
import { nonEmpty } from '../config';
import type { ScalingDeps } from '../usecases/evaluate-scaling-groups';
import {
  createCloudWatchClient,
  createDocumentClient,
  createEventBridgeClient,
  createSqsClient,
} from './clients';
import { createStores, storeConfig } from './stores';

/** Environment of the functions that read scaling groups and GPU metrics and act through leases. */
export const scalingConfig = {
  AWS_REGION: nonEmpty,
  ...storeConfig,
  SCALING_GROUPS_TABLE_NAME: nonEmpty,
  LEASE_COMMANDS_QUEUE_URL: nonEmpty,
  EVENT_BUS_NAME: nonEmpty,
};

export interface ScalingConfig {
  readonly AWS_REGION: string;
  readonly LEASES_TABLE_NAME: string;
  readonly USAGE_TABLE_NAME: string;
  readonly SCALING_GROUPS_TABLE_NAME: string;
  readonly LEASE_COMMANDS_QUEUE_URL: string;
  readonly EVENT_BUS_NAME: string;
}

/** Wires the scaling evaluator's ports to their AWS adapters, one client per service. */
export function createScaling(config: ScalingConfig, cloudWatch = createCloudWatchClient()): ScalingDeps {
  const { dynamoDb, leases } = createStores(config);
  return {
    leases,
    commands: new SqsLeaseCommandQueue(createSqsClient(), config.LEASE_COMMANDS_QUEUE_URL),
    events: new EventBridgePublisher(createEventBridgeClient(), config.EVENT_BUS_NAME),
    catalog: priceCatalog,
    region: config.AWS_REGION,
    now: Date.now,
    groups: new DynamoDbScalingGroupRepository(
      createDocumentClient(dynamoDb),
      config.SCALING_GROUPS_TABLE_NAME,
    ),
    metrics: new CloudWatchMetricReader(cloudWatch),
  };
}
