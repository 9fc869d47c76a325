import type { PriceCatalog } from '../domain/catalog';
import type { BudgetNotifier, BudgetRepository, SpendCounters } from '../ports/budgets';
import type { Compute } from '../ports/compute';
import type { ControlPlaneMetrics } from '../ports/control-plane-metrics';
import type { DomainEventPublisher } from '../ports/domain-events';
import type { LeaseCommandQueue } from '../ports/lease-commands';
import type { LeaseExpiryScheduler, TenantSettingsRepository } from '../ports/lease-expiry';
import type { LeaseRepository } from '../ports/lease-repository';
import type { MeteringLedger } from '../ports/metering-ledger';

/** Everything a use case may touch, injected by each function's composition root. */
export interface ControlPlane {
  readonly leases: LeaseRepository;
  readonly ledger: MeteringLedger;
  readonly spend: SpendCounters;
  readonly compute: Compute;
  readonly commands: LeaseCommandQueue;
  readonly events: DomainEventPublisher;
  readonly catalog: PriceCatalog;
  readonly region: string;
  readonly now: () => number;
  /** One-time schedules that release leases whose time is up. */
  readonly expiry: LeaseExpiryScheduler;
  /** Operational figures for the dashboard (time to RUNNING, launch failures). */
  readonly metrics: ControlPlaneMetrics;
}

/** What budget use cases add: the budgets and the alerts topic. */
export interface BudgetControl {
  readonly budgets: BudgetRepository;
  readonly notifier: BudgetNotifier;
}

/** What lease expiry adds on the API side: the tenants' default lifetimes. */
export interface TenantControl {
  readonly settings: TenantSettingsRepository;
}
