import type { PriceCatalog } from '../domain/catalog';
import type { PlacementCosts } from '../domain/placement-costs';
import type { UnavailableOfferings } from '../domain/unavailable-offerings';
import type { BudgetNotifier, BudgetRepository, SpendCounters } from '../ports/budgets';
import type { CommitmentRepository } from '../ports/commitments';
import type { Compute } from '../ports/compute';
import type { ControlPlaneMetrics } from '../ports/control-plane-metrics';
import type { DomainEventPublisher } from '../ports/domain-events';
import type { ImageRepository } from '../ports/images';
import type { LeaseCommandQueue } from '../ports/lease-commands';
import type { LeaseExpiryScheduler, TenantSettingsRepository } from '../ports/lease-expiry';
import type { LeaseRepository } from '../ports/lease-repository';
import type { MeteringLedger } from '../ports/metering-ledger';
import type { SpotPriceHistory } from '../ports/spot-price-history';

/** Everything a use case may touch, injected by each function's composition root. */
export interface ControlPlane {
  readonly leases: LeaseRepository;
  readonly ledger: MeteringLedger;
  /** Spot pools' recorded price changes: spot is billed at the price in force. */
  readonly spotPrices: SpotPriceHistory;
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
  readonly placement: PlacementSettings;
  readonly commitments: CommitmentRepository;
  readonly images: ImageRepository;
}

/** How the provisioner finds and ranks pools; read once from configuration. */
export interface PlacementSettings {
  /** GPU regions, home region first. */
  readonly regions: readonly string[];
  readonly costs: PlacementCosts;
  /** `ec2`: spot prices from DescribeSpotPriceHistory; `catalog`: on-demand × `spotCatalogRatio` only. */
  readonly spotPriceSource: 'ec2' | 'catalog';
  readonly spotCatalogRatio: number;
  /** Why spot is priced as it is, shown wherever spot prices are (set locally). */
  readonly spotPriceNote?: string | undefined;
  /** The image whose current version launches when a lease pins none. */
  readonly defaultImage: string;
  /** Offerings that refused capacity lately, per container. */
  readonly unavailable: UnavailableOfferings;
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
