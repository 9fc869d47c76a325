import type { PriceCatalog } from '../domain/catalog';
import type { PlacementCosts } from '../domain/placement-costs';
import type { UnavailableOfferings } from '../domain/unavailable-offerings';
import type { BudgetNotifier, BudgetRepository, SpendCounters } from '../ports/budgets';
import type { CommitmentRepository } from '../ports/commitments';
import type { Compute } from '../ports/compute';
import type { ControlPlaneMetrics } from '../ports/control-plane-metrics';
import type { DomainEventPublisher } from '../ports/domain-events';
import type { FleetStorageLedger } from '../ports/fleet-storage';
import type { ImageRepository } from '../ports/images';
import type { LeaseCommandQueue } from '../ports/lease-commands';
import type { LeaseExpiryScheduler, TenantSettingsRepository } from '../ports/lease-expiry';
import type { LeaseRepository } from '../ports/lease-repository';
import type { MeteringLedger } from '../ports/metering-ledger';
import type { SpotPriceHistory } from '../ports/spot-price-history';
import type { WarmPoolFillRequests } from '../ports/warm-pool-fill';
import type { WarmPoolRepository } from '../ports/warm-pools';
import type { AdmissionControl } from './admission/queue';

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
  /** Stopped machines kept ready: on-demand leases start one instead of launching. */
  readonly warmPools: WarmPoolRepository;
  /** Tops a pool up after a lease took one of its machines. */
  readonly warmFill: WarmPoolFillRequests;
  /** Warm machines' stopped volumes, the fleet's own storage cost (no tenant's). */
  readonly fleetStorage: FleetStorageLedger;
}

/*
 * What the use cases that end, provision and replace leases take: each the
 * ports it (and what it calls) uses, and no more, so a function is built,
 * and granted, only what its use cases reach.
 */

/** Ending a lease's instances: EC2, the lease and its bills, reserved slots. */
export type InstanceEnding = Pick<
  ControlPlane,
  'leases' | 'ledger' | 'spotPrices' | 'compute' | 'catalog' | 'placement' | 'commitments' | 'region' | 'now'
>;

/**
 * Ending a lease: its instances, then its expiry (cancelled, never armed), its
 * event, and what admission gave it (a pass follows: room may have opened).
 */
export type LeaseEnding = InstanceEnding &
  AdmissionControl &
  Pick<ControlPlane, 'events'> & { readonly expiry: Pick<LeaseExpiryScheduler, 'cancel'> };

/** Placing and launching a lease's GPUs, and failing it when no pool has room. */
export type Provisioning = LeaseEnding &
  Pick<ControlPlane, 'images' | 'metrics' | 'warmPools' | 'warmFill' | 'fleetStorage'>;

/** Marking a lease interrupted: its instance, the pool's refusal, the event and the replace command. */
export type InterruptionMarking = Pick<
  ControlPlane,
  'leases' | 'placement' | 'region' | 'now' | 'events' | 'commands'
>;

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
