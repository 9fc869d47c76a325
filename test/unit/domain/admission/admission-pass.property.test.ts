import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { priceCatalog } from '../../../../shared/catalog';
import {
  type AdmissionInput,
  type AdmittedLease,
  admissionPass,
  type QueuedLease,
  type WaitingLease,
} from '../../../../shared/domain/admission/admission-pass';
import { type Capacity, instanceFamily, type VcpuQuota } from '../../../../shared/domain/admission/capacity';
import type { Quota } from '../../../../shared/domain/admission/quota';
import type { LaunchCandidate, TenantUsage } from '../../../../shared/domain/admission/tenant-ledger';
import { RENTAL_MODES } from '../../../../shared/domain/lease';
import { candidate, MINUTE, NOW } from './fixtures';

const TENANTS = ['t0', 't1', 't2', 't3'];
const OPTIONS = [
  ['p3.2xlarge', 'us-east-1', 'on-demand'],
  ['p3.2xlarge', 'us-east-1', 'spot'],
  ['p3.2xlarge', 'us-east-1', 'reserved'],
  ['g5.xlarge', 'us-east-1', 'on-demand'],
  ['g5.xlarge', 'us-east-1', 'spot'],
  ['p3.2xlarge', 'us-west-2', 'on-demand'],
] as const;
const POOLS = [
  ['us-east-1', 'P', 'on-demand'],
  ['us-east-1', 'P', 'spot'],
  ['us-east-1', 'G', 'on-demand'],
  ['us-west-2', 'P', 'on-demand'],
] as const;

const quotaArb: fc.Arbitrary<Quota> = fc.record({
  maxGpus: fc.integer({ min: 0, max: 12 }),
  maxHourlyMicroUsd: fc.integer({ min: 0, max: 40_000_000 }),
  maxGpusByMode: fc.record(
    { spot: fc.integer({ min: 0, max: 6 }), reserved: fc.integer({ min: 0, max: 6 }) },
    { requiredKeys: [] },
  ),
  weight: fc.constantFrom(0.5, 1, 2, 3),
});

const usageArb: fc.Arbitrary<TenantUsage> = fc.record({
  gpus: fc.integer({ min: 0, max: 10 }),
  hourlyMicroUsd: fc.integer({ min: 0, max: 30_000_000 }),
  gpusByMode: fc.record({ spot: fc.integer({ min: 0, max: 6 }) }, { requiredKeys: [] }),
});

const capacityArb: fc.Arbitrary<Capacity> = fc.record({
  vcpuQuotas: fc.subarray([...POOLS]).chain((pools) =>
    fc.tuple(
      ...pools.map(([region, family, market]) =>
        fc.record({
          region: fc.constant(region),
          family: fc.constant(family),
          market: fc.constant(market),
          limitVcpus: fc.integer({ min: 0, max: 20 }).map((n) => n * 8),
          usedVcpus: fc.integer({ min: 0, max: 24 }).map((n) => n * 4),
        }),
      ),
    ),
  ),
  reservedSlots: fc.tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 4 })).map(([a, b]) => [
    { region: 'us-east-1', zone: 'us-east-1a', instanceType: 'p3.2xlarge', freeInstances: a },
    { region: 'us-east-1', zone: 'us-east-1b', instanceType: 'p3.2xlarge', freeInstances: b },
  ]),
}) as fc.Arbitrary<Capacity>;

const leaseArb = fc.record({
  tenantId: fc.constantFrom(...TENANTS),
  gpus: fc.integer({ min: 1, max: 6 }),
  options: fc.uniqueArray(fc.integer({ min: 0, max: OPTIONS.length - 1 }), { minLength: 1, maxLength: 3 }),
  priority: fc.constantFrom(0, 500, 1000),
  ageMinutes: fc.integer({ min: 0, max: 40 }),
});

const inputArb: fc.Arbitrary<Omit<AdmissionInput, 'catalog'>> = fc
  .record({
    leases: fc.array(leaseArb, { maxLength: 25 }),
    repeats: fc.array(fc.nat(), { maxLength: 3 }),
    usage: fc.dictionary(fc.constantFrom(...TENANTS), usageArb),
    quotas: fc.dictionary(fc.constantFrom(...TENANTS), quotaArb),
    defaultQuota: quotaArb,
    capacity: capacityArb,
    holdAfterMs: fc.constantFrom(0, 15 * MINUTE, Number.POSITIVE_INFINITY),
  })
  .map(({ leases, repeats, holdAfterMs, ...rest }) => {
    const queue: WaitingLease[] = leases.map((lease, i) => ({
      leaseId: `l${i}`,
      tenantId: lease.tenantId,
      workload: 'training',
      gpus: lease.gpus,
      candidates: lease.options.map((o) => {
        const [type, region, mode] = OPTIONS[o] as (typeof OPTIONS)[number];
        return candidate(lease.gpus, mode, type, region);
      }),
      priority: lease.priority,
      queuedAtMs: NOW - lease.ageMinutes * MINUTE,
      maxWaitMinutes: 60,
    }));
    const again = queue.length === 0 ? [] : repeats.map((r) => queue[r % queue.length] as WaitingLease);
    return { nowMs: NOW, queue: [...queue, ...again], holdAfterMs, ...rest };
  });

/** The rules of the pass, restated: the state a lease meets at its turn, and what fits it. */
class Oracle {
  private readonly gpus = new Map<string, number>();
  private readonly hourly = new Map<string, number>();
  private readonly modeGpus = new Map<string, number>();
  private readonly heldTenants = new Set<string>();
  private readonly used = new Map<string, number>();
  private readonly limits = new Map<string, number>();
  private readonly heldPools = new Set<string>();
  private readonly slots = new Map<string, number>();

  constructor(private readonly input: AdmissionInput) {
    for (const [tenantId, use] of Object.entries(input.usage)) {
      this.gpus.set(tenantId, use.gpus);
      this.hourly.set(tenantId, use.hourlyMicroUsd);
      for (const mode of RENTAL_MODES) this.modeGpus.set(`${tenantId}#${mode}`, use.gpusByMode[mode] ?? 0);
    }
    for (const q of input.capacity.vcpuQuotas) {
      this.limits.set(this.poolOf(q), q.limitVcpus);
      this.used.set(this.poolOf(q), q.usedVcpus);
    }
    for (const s of input.capacity.reservedSlots) this.slots.set(s.zone, s.freeInstances);
  }

  quota(tenantId: string): Quota {
    return this.input.quotas[tenantId] ?? this.input.defaultQuota;
  }

  share(tenantId: string): number {
    return (this.gpus.get(tenantId) ?? 0) / this.quota(tenantId).weight;
  }

  quotaFits(lease: WaitingLease, c: LaunchCandidate): boolean {
    const q = this.quota(lease.tenantId);
    const cap = q.maxGpusByMode[c.mode];
    return (
      !this.heldTenants.has(lease.tenantId) &&
      (this.gpus.get(lease.tenantId) ?? 0) + lease.gpus <= q.maxGpus &&
      (this.hourly.get(lease.tenantId) ?? 0) + c.hourlyMicroUsd <= q.maxHourlyMicroUsd &&
      (cap === undefined || (this.modeGpus.get(`${lease.tenantId}#${c.mode}`) ?? 0) + lease.gpus <= cap)
    );
  }

  /** Null when the candidate fits the capacity; else the reason it does not. */
  shortfall(c: LaunchCandidate): 'capacity' | 'account-quota' | null {
    if (c.mode === 'reserved') {
      const room = ['us-east-1a', 'us-east-1b'].some(
        (zone) => !this.heldPools.has('reserved') && (this.slots.get(zone) ?? 0) >= c.instances,
      );
      return room ? null : 'capacity';
    }
    const pool = this.poolOfCandidate(c);
    const limit = this.limits.get(pool);
    if (limit === undefined) return null;
    return !this.heldPools.has(pool) && (this.used.get(pool) ?? 0) + this.vcpus(c) <= limit
      ? null
      : 'account-quota';
  }

  admit(lease: WaitingLease, c: LaunchCandidate): void {
    this.gpus.set(lease.tenantId, (this.gpus.get(lease.tenantId) ?? 0) + lease.gpus);
    this.hourly.set(lease.tenantId, (this.hourly.get(lease.tenantId) ?? 0) + c.hourlyMicroUsd);
    const modeKey = `${lease.tenantId}#${c.mode}`;
    this.modeGpus.set(modeKey, (this.modeGpus.get(modeKey) ?? 0) + lease.gpus);
    if (c.mode === 'reserved') {
      const zone = ['us-east-1a', 'us-east-1b'].find(
        (z) => (this.slots.get(z) ?? 0) >= c.instances,
      ) as string;
      this.slots.set(zone, (this.slots.get(zone) ?? 0) - c.instances);
    } else if (this.limits.has(this.poolOfCandidate(c))) {
      const pool = this.poolOfCandidate(c);
      this.used.set(pool, (this.used.get(pool) ?? 0) + this.vcpus(c));
    }
  }

  /** Whether a release could ever make room: the quota and the pool's limit, with nothing running. */
  couldEverFit(lease: WaitingLease, blockedOn: LaunchCandidate | undefined): boolean {
    if (blockedOn) {
      const limit =
        blockedOn.mode === 'reserved' ? undefined : this.limits.get(this.poolOfCandidate(blockedOn));
      return limit === undefined || this.vcpus(blockedOn) <= limit;
    }
    const q = this.quota(lease.tenantId);
    return lease.candidates.some(
      (c) =>
        lease.gpus <= q.maxGpus &&
        c.hourlyMicroUsd <= q.maxHourlyMicroUsd &&
        lease.gpus <= (q.maxGpusByMode[c.mode] ?? lease.gpus),
    );
  }

  holdPool(c: LaunchCandidate): void {
    this.heldPools.add(c.mode === 'reserved' ? 'reserved' : this.poolOfCandidate(c));
  }

  holdTenant(tenantId: string): void {
    this.heldTenants.add(tenantId);
  }

  /** Whether the tenant, with what was just admitted on `mode`, is within its quota. */
  withinQuota(tenantId: string, mode: LaunchCandidate['mode']): boolean {
    const q = this.quota(tenantId);
    const cap = q.maxGpusByMode[mode];
    return (
      (this.gpus.get(tenantId) ?? 0) <= q.maxGpus &&
      (this.hourly.get(tenantId) ?? 0) <= q.maxHourlyMicroUsd &&
      (cap === undefined || (this.modeGpus.get(`${tenantId}#${mode}`) ?? 0) <= cap)
    );
  }

  withinPool(c: LaunchCandidate): boolean {
    if (c.mode === 'reserved') return [...this.slots.values()].every((free) => free >= 0);
    const pool = this.poolOfCandidate(c);
    const limit = this.limits.get(pool);
    return limit === undefined || (this.used.get(pool) ?? 0) <= limit;
  }

  private vcpus(c: LaunchCandidate): number {
    return c.instances * (priceCatalog.offering(c.instanceType)?.vcpu ?? Number.NaN);
  }

  private poolOf(q: Pick<VcpuQuota, 'region' | 'family' | 'market'>): string {
    return `${q.region}#${q.family}#${q.market}`;
  }

  private poolOfCandidate(c: LaunchCandidate): string {
    return this.poolOf({
      region: c.region,
      family: instanceFamily(c.instanceType),
      market: c.mode === 'spot' ? 'spot' : 'on-demand',
    });
  }
}

const before = (a: WaitingLease, b: WaitingLease) =>
  a.priority !== b.priority
    ? a.priority > b.priority
    : a.queuedAtMs !== b.queuedAtMs
      ? a.queuedAtMs < b.queuedAtMs
      : a.leaseId < b.leaseId;

describe('admission pass properties', () => {
  it('follows fair share, priority and age, admits exactly what fits at its turn, never exceeds a limit', () => {
    fc.assert(
      fc.property(inputArb, (generated) => {
        const input: AdmissionInput = { ...generated, catalog: priceCatalog };
        const result = admissionPass(input);
        const decisions: (AdmittedLease | QueuedLease)[] = [...result.admitted, ...result.queued].sort(
          (a, b) => a.turn - b.turn,
        );
        const uniqueIds = [...new Set(input.queue.map((lease) => lease.leaseId))];
        // Every lease decided once: admitted or queued, never twice.
        expect(decisions.map((d) => d.lease.leaseId).sort()).toEqual([...uniqueIds].sort());
        expect(decisions.map((d) => d.turn)).toEqual(decisions.map((_, i) => i));
        expect(result.queued.map((q) => q.position)).toEqual(result.queued.map((_, i) => i + 1));

        const oracle = new Oracle(input);
        const undecided = new Map(uniqueIds.map((id) => [id, input.queue.find((l) => l.leaseId === id)]));
        for (const decision of decisions) {
          const lease = decision.lease;
          undecided.delete(lease.leaseId);
          const rivals = [...undecided.values()] as WaitingLease[];
          // Fair share first: no tenant with leases left has a lower weighted share.
          for (const rival of rivals) {
            expect(oracle.share(lease.tenantId)).toBeLessThanOrEqual(oracle.share(rival.tenantId));
            if (rival.tenantId === lease.tenantId) expect(before(lease, rival)).toBe(true);
          }
          const fitting = lease.candidates.find(
            (c) => oracle.quotaFits(lease, c) && oracle.shortfall(c) === null,
          );
          const quotaTaken = lease.candidates.find((c) => oracle.quotaFits(lease, c));
          if ('launch' in decision) {
            expect(decision.launch).toEqual(fitting);
            oracle.admit(lease, decision.launch);
            expect(oracle.withinQuota(lease.tenantId, decision.launch.mode)).toBe(true);
            expect(oracle.withinPool(decision.launch)).toBe(true);
          } else {
            // Queued only if nothing fits given the leases before it (and what earlier leases hold).
            expect(fitting).toBeUndefined();
            expect(decision.reason).toBe(quotaTaken ? oracle.shortfall(quotaTaken) : 'quota');
            const waited = input.nowMs - lease.queuedAtMs >= (input.holdAfterMs ?? 0);
            expect(decision.holding).toBe(waited && oracle.couldEverFit(lease, quotaTaken));
            if (decision.holding && quotaTaken) oracle.holdPool(quotaTaken);
            if (decision.holding && !quotaTaken) oracle.holdTenant(lease.tenantId);
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});
