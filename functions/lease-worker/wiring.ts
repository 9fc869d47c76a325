import { defaultTenantQuota } from '../../shared/lambda/admission';
import { deadlineJobs } from '../../shared/lambda/deadlines';
import { idempotencyStore } from '../../shared/lambda/idempotency';
import { leaseExpiryCancel } from '../../shared/lambda/lease-expiry';
import { domainEventPublisher, leaseCommandQueue, warmPoolFillRequests } from '../../shared/lambda/messaging';
import { ec2Compute, placementSettings } from '../../shared/lambda/placement';
import type { Wiring } from '../../shared/lambda/port-factory';
import {
  admissionStore,
  commitmentRepository,
  fleetStorageLedger,
  imageRepository,
  leaseRepository,
  meteringLedger,
  spotPriceHistory,
  warmPoolRepository,
} from '../../shared/lambda/stores';
import { taskRunning } from '../../shared/lambda/tasks';
import { controlPlaneMetrics, homeRegion, priceCatalogValue, wallClock } from '../../shared/lambda/values';

/**
 * The lease worker's ports: it provisions (launch, adopt, fail), releases and
 * replaces leases, turns an expiry into a release command, and places jobs
 * with deadlines where their policy decides. Pure: the CDK
 * stack reads it for the function's environment and grants.
 */
export const leaseWorkerWiring = {
  leases: leaseRepository('readWrite'),
  ledger: meteringLedger('readWrite'),
  spotPrices: spotPriceHistory('read'),
  compute: ec2Compute('fleet', 'spotPrices', 'launch', 'instances', 'terminate', 'warmStart'),
  placement: placementSettings(),
  // Claims and frees reserved slots.
  commitments: commitmentRepository('readWrite', 'read'),
  images: imageRepository('read'),
  // On-demand leases claim stopped warm machines first, then ask the filler to top the pool up.
  warmPools: warmPoolRepository('readWrite'),
  warmFill: warmPoolFillRequests(),
  // A started warm machine's stopped stretch closes on the fleet's bill at its claim.
  fleetStorage: fleetStorageLedger('readWrite'),
  events: domainEventPublisher(),
  // An expire command is released like a tenant's DELETE: through a release command.
  commands: leaseCommandQueue(),
  expiry: leaseExpiryCancel(),
  metrics: controlPlaneMetrics(),
  catalog: priceCatalogValue(),
  region: homeRegion(),
  now: wallClock(),
  // Starts a lease's task once it runs, stops it before a release, moves it to a replacement.
  tasks: taskRunning(),
  // Jobs with deadlines: their progress (checkpoints, read through the checkpoint role) and decisions.
  deadlineJobs: deadlineJobs(),
  // Admission: a lease joins the queue before it launches; ends give back what it held and run a pass.
  admission: admissionStore('readWrite'),
  defaultQuota: defaultTenantQuota(),
  idempotency: idempotencyStore(),
} satisfies Wiring;
