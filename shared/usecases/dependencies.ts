import type { PriceCatalog } from '../domain/catalog';
import type { PlacementCosts } from '../domain/placement-costs';
import type { UnavailableOfferings } from '../domain/unavailable-offerings';
import type { CommitmentRepository } from '../ports/commitments';
import type { Compute } from '../ports/compute';
import type { DomainEventPublisher } from '../ports/domain-events';
import type { ImageRepository } from '../ports/images';
import type { LeaseCommandQueue } from '../ports/lease-commands';
import type { LeaseRepository } from '../ports/lease-repository';
import type { MeteringLedger } from '../ports/metering-ledger';

/** Everything a use case may touch, injected by each function's composition root. */
export interface ControlPlane {
  readonly leases: LeaseRepository;
  readonly ledger: MeteringLedger;
  readonly compute: Compute;
  readonly commands: LeaseCommandQueue;
  readonly events: DomainEventPublisher;
  readonly catalog: PriceCatalog;
  readonly region: string;
  readonly now: () => number;
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
