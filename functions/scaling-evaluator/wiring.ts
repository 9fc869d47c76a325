import { leaseExpiryScheduler } from '../../shared/lambda/lease-expiry';
import { budgetNotifier, domainEventPublisher, leaseCommandQueue } from '../../shared/lambda/messaging';
import { ec2Compute, placementSettings } from '../../shared/lambda/placement';
import type { Wiring } from '../../shared/lambda/port-factory';
import {
  budgetRepository,
  gpuHealthMarks,
  idleEpisodes,
  idleLedger,
  idlePolicyRepository,
  imageRepository,
  leaseRepository,
  scalingGroupRepository,
  spendCounters,
  spotPriceHistory,
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
 * to the tenant's block-new-leases budgets, given the tenant's default lifetime),
 * and the idle evaluation that rides in the same telemetry read: policies,
 * episodes, the waste ledger (spend table) priced as bills are, idle notices
 * on the alerts topic.
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
  idlePolicies: idlePolicyRepository('read'),
  idleEpisodes: idleEpisodes(),
  idleLedger: idleLedger('readWrite'),
  idleNotifier: budgetNotifier(),
  spotPrices: spotPriceHistory('read'),
} satisfies Wiring;
