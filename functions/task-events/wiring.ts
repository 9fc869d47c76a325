import { defaultTenantQuota } from '../../shared/lambda/admission';
import { leaseExpiryCancel } from '../../shared/lambda/lease-expiry';
import { domainEventPublisher, leaseCommandQueue } from '../../shared/lambda/messaging';
import { ec2Compute, placementSettings } from '../../shared/lambda/placement';
import type { Wiring } from '../../shared/lambda/port-factory';
import {
  admissionStore,
  commitmentRepository,
  leaseRepository,
  meteringLedger,
  spotPriceHistory,
} from '../../shared/lambda/stores';
import { taskRunning } from '../../shared/lambda/tasks';
import { homeRegion, priceCatalogValue, wallClock } from '../../shared/lambda/values';

/**
 * The task-events handler's ports: it finds the invocation's lease by its
 * instance and moves the task on (a retry is sent through SSM). When the
 * task's end releases the lease (onExit release), it ends the lease in the
 * same delivery: terminates its instances, closes their bills, frees its
 * reserved slots and its admission, cancels its expiry. The release command
 * it also queues, held back, is only the backstop of a delivery that died.
 */
export const taskEventsWiring = {
  leases: leaseRepository('readWrite'),
  ledger: meteringLedger('readWrite'),
  spotPrices: spotPriceHistory('read'),
  compute: ec2Compute('instances', 'terminate'),
  placement: placementSettings(),
  commitments: commitmentRepository('readWrite', 'read'),
  tasks: taskRunning(),
  commands: leaseCommandQueue(),
  events: domainEventPublisher(),
  expiry: leaseExpiryCancel(),
  admission: admissionStore('readWrite'),
  defaultQuota: defaultTenantQuota(),
  catalog: priceCatalogValue(),
  region: homeRegion(),
  now: wallClock(),
} satisfies Wiring;
