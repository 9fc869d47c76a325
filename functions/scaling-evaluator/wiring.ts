import { leaseExpiryScheduler } from '../../shared/lambda/lease-expiry';
import { domainEventPublisher, leaseCommandQueue } from '../../shared/lambda/messaging';
import { ec2Compute, placementSettings } from '../../shared/lambda/placement';
import type { Wiring } from '../../shared/lambda/port-factory';
import {
  budgetRepository,
  gpuHealthMarks,
  imageRepository,
  leaseRepository,
  scalingGroupRepository,
  spendCounters,
  tenantSettings,
} from '../../shared/lambda/stores';
import {
  gpuMetricReader,
  gpuTemperatureLimit,
  homeRegion,
  priceCatalogValue,
  wallClock,
} from '../../shared/lambda/values';

/**
 * The scaling evaluator's ports: the groups and their GPU metrics, and what
 * creating and releasing members as leases takes (placed like any lease, held
 * to the tenant's block-new-leases budgets, given the tenant's default lifetime).
 */
export const scalingEvaluatorWiring = {
  groups: scalingGroupRepository('readWrite'),
  marks: gpuHealthMarks(),
  metrics: gpuMetricReader(),
  temperatureLimitC: gpuTemperatureLimit(),
  leases: leaseRepository('readWrite'),
  spend: spendCounters('read'),
  budgets: budgetRepository('read'),
  settings: tenantSettings('read'),
  images: imageRepository('read'),
  compute: ec2Compute('fleet', 'spotPrices'),
  placement: placementSettings(),
  expiry: leaseExpiryScheduler(),
  commands: leaseCommandQueue(),
  events: domainEventPublisher(),
  catalog: priceCatalogValue(),
  region: homeRegion(),
  now: wallClock(),
} satisfies Wiring;
