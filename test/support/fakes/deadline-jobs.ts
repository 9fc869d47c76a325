import type { OnDemandOffer, SpotPoolSignal } from '../../../shared/domain/deadlines/policy-input';
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

  history(tenantId: string, leaseId: string): readonly StoredDecision[] {
    return this.decisions.get(`${tenantId}/${leaseId}`) ?? [];
  }
}

/** Pool signals and offers set by the test; only the zones asked for come back. */
export class FakeDeadlineMarketSignals implements DeadlineMarketSignals {
  pools: SpotPoolSignal[] = [];
  offers: OnDemandOffer[] = [];

  async spotPools(zones: readonly string[]): Promise<readonly SpotPoolSignal[]> {
    return this.pools.filter((pool) => zones.includes(pool.zone));
  }

  async onDemandOffers(zones: readonly string[]): Promise<readonly OnDemandOffer[]> {
    const regions = new Set(zones.map((zone) => zone.replace(/[a-z]$/, '')));
    return this.offers.filter((offer) => regions.has(offer.region));
  }
}
