import { CloudWatchMetricReader } from '../adapters/cloudwatch-metric-reader';
import { DynamoDbBudgetRepository } from '../adapters/dynamodb-budget-repository';
import { DynamoDbGpuHealthMarks } from '../adapters/dynamodb-gpu-health-marks';
import { DynamoDbScalingGroupRepository } from '../adapters/dynamodb-scaling-group-repository';
import { DynamoDbTenantSettings } from '../adapters/dynamodb-tenant-settings';
import { EventBridgePublisher } from '../adapters/eventbridge-publisher';
import { SqsLeaseCommandQueue } from '../adapters/sqs-lease-command-queue';
import { priceCatalog } from '../catalog';
import { nonEmpty } from '../config';
import { DEFAULT_GPU_TEMPERATURE_LIMIT_C } from '../domain/gpu-health';
import type { ScalingDeps } from '../usecases/evaluate-scaling-groups';
import * as z from '../zod';
import { createCloudWatchClient, createEventBridgeClient, createSqsClient } from './clients';
import { createLeaseExpiry, type LeaseExpiryConfig, leaseExpiryConfig } from './lease-expiry';
import { createPlacement, type PlacementConfig, placementConfig } from './placement';
import { createStores, type StoreConfig, storeConfig } from './stores';

/** Environment of the functions that read scaling groups and GPU metrics and act through leases. */
export const scalingConfig = {
  ...storeConfig,
  ...leaseExpiryConfig,
  // Members are placed like any lease: the fleet, its regions and prices.
  ...placementConfig,
  SCALING_GROUPS_TABLE_NAME: nonEmpty,
  /** Members are leases: createLease holds them to the tenant's block-new-leases budgets. */
  BUDGETS_TABLE_NAME: nonEmpty,
  LEASE_COMMANDS_QUEUE_URL: nonEmpty,
  EVENT_BUS_NAME: nonEmpty,
  /** A GPU hotter than this is reported unhealthy. */
  GPU_TEMPERATURE_LIMIT_C: z._default(
    z.coerce.number().check(z.gte(40), z.lte(120)),
    DEFAULT_GPU_TEMPERATURE_LIMIT_C,
  ),
};

export interface ScalingConfig extends StoreConfig, LeaseExpiryConfig, PlacementConfig {
  readonly AWS_REGION: string;
  readonly BUDGETS_TABLE_NAME: string;
  readonly SCALING_GROUPS_TABLE_NAME: string;
  readonly LEASE_COMMANDS_QUEUE_URL: string;
  readonly EVENT_BUS_NAME: string;
  readonly GPU_TEMPERATURE_LIMIT_C: number;
}

/** Wires the scaling evaluator's ports to their AWS adapters, one client per service. */
export function createScaling(config: ScalingConfig, cloudWatch = createCloudWatchClient()): ScalingDeps {
  const { documents, leases, spend, images } = createStores(config);
  const { compute, placement } = createPlacement(config);
  return {
    leases,
    spend,
    compute,
    placement,
    images,
    budgets: new DynamoDbBudgetRepository(documents, config.BUDGETS_TABLE_NAME),
    expiry: createLeaseExpiry(config),
    settings: new DynamoDbTenantSettings(documents, config.LEASES_TABLE_NAME),
    commands: new SqsLeaseCommandQueue(createSqsClient(), config.LEASE_COMMANDS_QUEUE_URL),
    events: new EventBridgePublisher(createEventBridgeClient(), config.EVENT_BUS_NAME),
    catalog: priceCatalog,
    region: config.AWS_REGION,
    now: Date.now,
    groups: new DynamoDbScalingGroupRepository(documents, config.SCALING_GROUPS_TABLE_NAME),
    metrics: new CloudWatchMetricReader(cloudWatch),
    marks: new DynamoDbGpuHealthMarks(documents, config.SCALING_GROUPS_TABLE_NAME),
    temperatureLimitC: config.GPU_TEMPERATURE_LIMIT_C,
  };
}
