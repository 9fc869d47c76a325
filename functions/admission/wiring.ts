import { defaultTenantQuota } from '../../shared/lambda/admission';
import { leaseExpiryCancel } from '../../shared/lambda/lease-expiry';
import { domainEventPublisher, leaseCommandQueue } from '../../shared/lambda/messaging';
import type { Wiring } from '../../shared/lambda/port-factory';
import { admissionStore, leaseRepository } from '../../shared/lambda/stores';
import { priceCatalogValue, wallClock } from '../../shared/lambda/values';

/**
 * The scheduled admission pass's ports: the queue and the tenants' use
 * (admission table), the leases it moves QUEUED → PENDING or FAILED, the start
 * commands of admitted leases, the events, and the expiry schedules of leases
 * that time out. No EC2: admitted leases are launched by the lease worker.
 */
export const admissionWiring = {
  admission: admissionStore('readWrite'),
  defaultQuota: defaultTenantQuota(),
  leases: leaseRepository('readWrite'),
  commands: leaseCommandQueue(),
  events: domainEventPublisher(),
  expiry: leaseExpiryCancel(),
  catalog: priceCatalogValue(),
  now: wallClock(),
} satisfies Wiring;
