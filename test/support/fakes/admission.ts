import type { WaitingLease } from '../../../shared/domain/admission/admission-pass';
import {
  type AdmissionClaim,
  type CapacityPool,
  poolKey,
  runningOf,
  type TenantAdmission,
} from '../../../shared/domain/admission/claims';
import {
  type CompletedLease,
  type DurationSamples,
  historyKey,
  samplesOfWindows,
  withDuration,
} from '../../../shared/domain/admission/duration-history';
import type { Quota } from '../../../shared/domain/admission/quota';
import { NO_USAGE, type TenantUsage } from '../../../shared/domain/admission/tenant-ledger';
import type { RunningLease } from '../../../shared/domain/admission/wait-estimate';
import type {
  AdmissionSnapshot,
  AdmissionStatus,
  AdmissionStore,
  AdmitOutcome,
  PoolLimit,
} from '../../../shared/ports/admission-store';

interface Entry {
  lease: WaitingLease;
  status: AdmissionStatus;
  claim?: AdmissionClaim;
  durationRecorded?: boolean;
}

/**
 * The admission store in memory, for use cases run one at a time: a claim is
 * committed only if its lease is QUEUED, and the tenant's counters and its
 * capacity pool move with it. It never conflicts: racing passes are the
 * DynamoDB store's business (its property test).
 */
export class FakeAdmissionStore implements AdmissionStore {
  readonly entries = new Map<string, Entry>();
  private readonly tenants = new Map<string, { usage: TenantUsage; quota?: Quota; quotaVersion?: number }>();
  private readonly windows = new Map<
    string,
    Omit<CompletedLease, 'durationMs'> & { durationsMs: number[] }
  >();
  private readonly capacity = new Map<string, CapacityPool>();

  async enqueue(lease: WaitingLease): Promise<boolean> {
    if (this.entries.has(lease.leaseId)) return false;
    this.entries.set(lease.leaseId, { lease, status: 'QUEUED' });
    return true;
  }

  async snapshot(): Promise<AdmissionSnapshot> {
    const queue = [...this.entries.values()]
      .filter((entry) => entry.status === 'QUEUED')
      .map((entry) => entry.lease)
      .sort((a, b) => a.queuedAtMs - b.queuedAtMs || a.leaseId.localeCompare(b.leaseId));
    const tenants: Record<string, TenantAdmission> = {};
    for (const [tenantId, tenant] of this.tenants) tenants[tenantId] = { tenantId, ...tenant };
    return { queue, tenants, pools: await this.pools() };
  }

  async admit(claims: readonly AdmissionClaim[]): Promise<AdmitOutcome> {
    const committed: AdmissionClaim[] = [];
    for (const claim of claims) {
      const entry = this.entries.get(claim.leaseId);
      if (entry?.status !== 'QUEUED') return { committed, conflicted: true };
      entry.status = 'ADMITTED';
      entry.claim = claim;
      this.add(claim, 1);
      committed.push(claim);
    }
    return { committed, conflicted: false };
  }

  /** Its admissions are whole at once: no pass leaves a reservation behind. */
  async recover(): Promise<readonly AdmissionClaim[]> {
    return [];
  }

  async release(leaseId: string): Promise<AdmissionClaim | undefined> {
    const entry = this.entries.get(leaseId);
    if (entry?.status === 'QUEUED') entry.status = 'RELEASED';
    if (entry?.status !== 'ADMITTED' || !entry.claim) return undefined;
    entry.status = 'RELEASED';
    this.add(entry.claim, -1);
    return entry.claim;
  }

  async timeOut(leaseId: string): Promise<boolean> {
    const entry = this.entries.get(leaseId);
    if (entry?.status !== 'QUEUED') return false;
    entry.status = 'TIMED_OUT';
    return true;
  }

  async putQuota(tenantId: string, quota: Quota): Promise<void> {
    const tenant = this.tenant_(tenantId);
    tenant.quota = quota;
    tenant.quotaVersion = (tenant.quotaVersion ?? 0) + 1;
  }

  async tenant(tenantId: string): Promise<TenantAdmission | undefined> {
    const tenant = this.tenants.get(tenantId);
    return tenant && { tenantId, ...tenant };
  }

  async putPoolLimit(pool: PoolLimit): Promise<void> {
    const key = poolKey(pool);
    this.capacity.set(key, { ...pool, used: this.capacity.get(key)?.used ?? 0 });
  }

  async pools(): Promise<CapacityPool[]> {
    return [...this.capacity.values()];
  }

  async claims(): Promise<AdmissionClaim[]> {
    return [...this.entries.values()].flatMap(({ status, claim }) =>
      status === 'ADMITTED' && claim ? [claim] : [],
    );
  }

  async status(leaseId: string): Promise<AdmissionStatus | undefined> {
    return this.entries.get(leaseId)?.status;
  }

  async entry(leaseId: string): Promise<{ status: AdmissionStatus; lease: WaitingLease } | undefined> {
    const entry = this.entries.get(leaseId);
    return entry && { status: entry.status, lease: entry.lease };
  }

  async claim(leaseId: string): Promise<AdmissionClaim | undefined> {
    const entry = this.entries.get(leaseId);
    return entry?.status === 'ADMITTED' ? entry.claim : undefined;
  }

  async running(): Promise<RunningLease[]> {
    return [...this.entries.values()].flatMap(({ lease, status, claim }) =>
      status === 'ADMITTED' && claim ? [runningOf(lease, claim)] : [],
    );
  }

  async requeue(leaseId: string, refused: NonNullable<WaitingLease['refused']>): Promise<boolean> {
    const entry = this.entries.get(leaseId);
    if (entry?.status !== 'ADMITTED' || !entry.claim) return false;
    this.add(entry.claim, -1);
    this.entries.set(leaseId, { lease: { ...entry.lease, refused }, status: 'QUEUED' });
    return true;
  }

  async recordDuration(completed: CompletedLease & { readonly leaseId: string }): Promise<boolean> {
    const entry = this.entries.get(completed.leaseId);
    if (!entry || entry.durationRecorded) return false;
    entry.durationRecorded = true;
    const { tenantId, workload, durationMs } = completed;
    const key = historyKey(tenantId, workload);
    const durationsMs = withDuration(this.windows.get(key)?.durationsMs ?? [], durationMs);
    this.windows.set(key, { tenantId, workload, durationsMs });
    return true;
  }

  async durations(): Promise<DurationSamples> {
    return samplesOfWindows([...this.windows.values()]);
  }

  private tenant_(tenantId: string) {
    let tenant = this.tenants.get(tenantId);
    if (!tenant) {
      tenant = { usage: NO_USAGE };
      this.tenants.set(tenantId, tenant);
    }
    return tenant;
  }

  private add(claim: AdmissionClaim, sign: 1 | -1): void {
    const tenant = this.tenant_(claim.tenantId);
    const { gpus, hourlyMicroUsd, gpusByMode } = tenant.usage;
    tenant.usage = {
      gpus: gpus + sign * claim.gpus,
      hourlyMicroUsd: hourlyMicroUsd + sign * claim.hourlyMicroUsd,
      gpusByMode: { ...gpusByMode, [claim.mode]: (gpusByMode[claim.mode] ?? 0) + sign * claim.gpus },
    };
    const pool = claim.pool && this.capacity.get(claim.pool.key);
    if (claim.pool && pool)
      this.capacity.set(claim.pool.key, { ...pool, used: pool.used + sign * claim.pool.units });
  }
}
