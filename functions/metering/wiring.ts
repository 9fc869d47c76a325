import { budgetNotifier, domainEventPublisher, meteringWorkQueue } from '../../shared/lambda/messaging';
import type { Wiring } from '../../shared/lambda/port-factory';
import {
  commitmentRepository,
  leaseRepository,
  meteringLedger,
  spendAnomalyStore,
  spotPriceHistory,
} from '../../shared/lambda/stores';
import { homeRegion, priceCatalogValue } from '../../shared/lambda/values';

/**
 * Metering's ports: the open instances, their charges, the idle reserved GPUs of
 * each tick, and the spend-anomaly baselines each tick advances (alerts on the
 * budget alerts topic, `SpendAnomaly` on the bus).
 */
export const meteringWiring = {
  leases: leaseRepository('readWrite'),
  ledger: meteringLedger('readWrite'),
  spotPrices: spotPriceHistory('read'),
  // Records the reserved GPUs nobody used (IDLE#<month> in the usage table).
  commitments: commitmentRepository('read', 'readWrite'),
  catalog: priceCatalogValue(),
  /** Instances without a region of their own run in the home region (the RunningGpus dimension). */
  region: homeRegion(),
  overflow: meteringWorkQueue(),
  anomalies: spendAnomalyStore('readWrite'),
  notifier: budgetNotifier(),
  events: domainEventPublisher(),
} satisfies Wiring;
