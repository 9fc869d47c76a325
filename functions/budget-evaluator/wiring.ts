import { budgetNotifier, domainEventPublisher, leaseCommandQueue } from '../../shared/lambda/messaging';
import type { Wiring } from '../../shared/lambda/port-factory';
import { budgetRepository, leaseRepository, spendCounters } from '../../shared/lambda/stores';
import { wallClock } from '../../shared/lambda/values';

/** The budget evaluator's ports: budgets against spend and run rates, alerts, and its actions on leases. */
export const budgetEvaluatorWiring = {
  // Reads open instances (run rates); stop-interruptible moves leases to RELEASING.
  leases: leaseRepository('readWrite'),
  spend: spendCounters('read'),
  budgets: budgetRepository('readWrite'),
  notifier: budgetNotifier(),
  // stop-interruptible releases leases through the lease worker, like a tenant's DELETE.
  commands: leaseCommandQueue(),
  events: domainEventPublisher(),
  now: wallClock(),
} satisfies Wiring;
