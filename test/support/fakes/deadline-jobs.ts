import type { OnDemandOffer, SpotPoolSignal } from '../../../shared/domain/deadlines/policy-input';
import type { MarketQuery } from '../../../shared/domain/deadlines/pool-signals';
import type {
  DeadlineJobRecord,
  DeadlineJobs,
  DeadlineMarketSignals,
  StoredDecision,
} from '../../../shared/ports/deadline-jobs';

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
