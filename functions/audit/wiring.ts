import { budgetNotifier, domainEventPublisher } from '../../shared/lambda/messaging';
import type { Wiring } from '../../shared/lambda/port-factory';
import {
  auditStore,
  chargedTenants,
  commitmentRepository,
  fleetStorageLedger,
  idleLedger,
  leaseRepository,
  spendCounters,
} from '../../shared/lambda/stores';
import {
  gpuMetricReader,
  homeRegion,
  priceCatalogValue,
  spotTraceFiles,
  wallClock,
} from '../../shared/lambda/values';

/** The monthly audit's ports: it reads the month, replays it against the spot traces, stores and announces. */
export const auditWiring = {
  leases: leaseRepository('read'),
  // Rollups and month-to-date counters.
  spend: spendCounters('read'),
  // The fleet's storage overhead of the month (warm pools' stopped volumes), shown beside the tenant's split.
  fleetStorage: fleetStorageLedger('read'),
  // The fleet's idle reserved time of the month (IDLE#<month> in the usage table).
  commitments: commitmentRepository('read'),
  // Idle GPU cost by project and lease, from the waste ledger's rollups.
  idleLedger: idleLedger('read'),
  // Utilization by hour of day from the GPU telemetry.
  metrics: gpuMetricReader(),
  audits: auditStore('readWrite'),
  tenants: chargedTenants(),
  spotTraces: spotTraceFiles(),
  notifier: budgetNotifier(),
  events: domainEventPublisher(),
  catalog: priceCatalogValue(),
  region: homeRegion(),
  now: wallClock(),
} satisfies Wiring;
