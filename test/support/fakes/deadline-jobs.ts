import { priceCatalog } from '../../../shared/catalog';
import { deadlineJobRecord } from '../../../shared/domain/deadlines/job-record';
import type { OnDemandOffer, SpotPoolSignal } from '../../../shared/domain/deadlines/policy-input';
import type { MarketQuery } from '../../../shared/domain/deadlines/pool-signals';
import type { CheckpointReport } from '../../../shared/domain/deadlines/progress';
import type {
  DeadlineJobRecord,
  DeadlineJobs,
  DeadlineMarketSignals,
  StoredDecision,
} from '../../../shared/ports/deadline-jobs';
import type { LeaseRepository } from '../../../shared/ports/lease-repository';

/** Jobs with deadlines kept in memory, with every decision recorded in order. */
export class FakeDeadlineJobs implements DeadlineJobs {
  readonly jobs = new Map<string, DeadlineJobRecord>();
  readonly decisions = new Map<string, StoredDecision[]>();

  put(record: DeadlineJobRecord): void {
    this.jobs.set(`${record.tenantId}/${record.leaseId}`, record);
  }

  async get(tenantId: string, leaseId: string): Promise<DeadlineJobRecord | null> {
    return this.jobs.get(`${tenantId}/${leaseId}`) ?? null;
  }

  async recordDecision(tenantId: string, leaseId: string, decision: StoredDecision): Promise<void> {
    const key = `${tenantId}/${leaseId}`;
    this.decisions.set(key, [...(this.decisions.get(key) ?? []), decision]);
  }

  async close(tenantId: string, leaseId: string): Promise<void> {
    this.jobs.delete(`${tenantId}/${leaseId}`);
  }

  history(tenantId: string, leaseId: string): readonly StoredDecision[] {
    return this.decisions.get(`${tenantId}/${leaseId}`) ?? [];
  }
}

/** Pool signals and offers set by the test; only those of the regions asked for come back. */
export class FakeDeadlineMarketSignals implements DeadlineMarketSignals {
  pools: SpotPoolSignal[] = [];
  offers: OnDemandOffer[] = [];

  async spotPools(query: MarketQuery): Promise<readonly SpotPoolSignal[]> {
    return this.pools.filter((pool) => query.regions.includes(pool.region));
  }

  async onDemandOffers(query: MarketQuery): Promise<readonly OnDemandOffer[]> {
    return this.offers.filter((offer) => query.regions.includes(offer.region));
  }
}

/**
 * Jobs read from the fake lease store through the real record builder, as the
 * DynamoDB adapter reads them: the reports are the test's, decisions kept in order.
 */
export class LeaseBackedDeadlineJobs implements DeadlineJobs {
  reports: CheckpointReport[] = [];
  readonly decisions: StoredDecision[] = [];
  readonly closed: string[] = [];

  constructor(
    private readonly leases: Pick<LeaseRepository, 'get'>,
    private readonly fleet: { readonly regions: readonly string[]; readonly homeRegion: string },
  ) {}

  async get(tenantId: string, leaseId: string): Promise<DeadlineJobRecord | null> {
    const lease = await this.leases.get(tenantId, leaseId);
    return lease ? deadlineJobRecord(lease, this.reports, priceCatalog, this.fleet) : null;
  }

  async recordDecision(_tenantId: string, _leaseId: string, decision: StoredDecision): Promise<void> {
    this.decisions.push(decision);
  }

  async close(_tenantId: string, leaseId: string): Promise<void> {
    this.closed.push(leaseId);
  }
}
