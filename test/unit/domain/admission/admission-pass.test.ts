import { describe, expect, it } from 'vitest';
import { priceCatalog } from '../../../../shared/catalog';
import {
  type AdmissionInput,
  admissionPass,
  DEFAULT_HOLD_AFTER_MS,
} from '../../../../shared/domain/admission/admission-pass';
import { splitTimedOut } from '../../../../shared/domain/admission/queue-timeout';
import { candidate, MINUTE, NOW, P3, pQuota, quota, waiting } from './fixtures';

const input = (overrides: Partial<AdmissionInput>): AdmissionInput => ({
  nowMs: NOW,
  queue: [],
  usage: {},
  quotas: {},
  defaultQuota: quota(),
  capacity: pQuota(100),
  catalog: priceCatalog,
  ...overrides,
});

const ids = (leases: readonly { lease: { leaseId: string } }[]) => leases.map((entry) => entry.lease.leaseId);

describe('admission order', () => {
  it('goes to the tenant with the lowest share of GPUs in use, recomputed after each admission', () => {
    const a1 = waiting('a', 2, { queuedAtMs: NOW - 30 * MINUTE });
    const a2 = waiting('a', 2, { queuedAtMs: NOW - 29 * MINUTE });
    const b1 = waiting('b', 2, { queuedAtMs: NOW - 2 * MINUTE });
    const b2 = waiting('b', 2, { queuedAtMs: NOW - MINUTE });
    const result = admissionPass(
      input({
        queue: [a1, a2, b1, b2],
        usage: { a: { gpus: 3, hourlyMicroUsd: 0, gpusByMode: {} } },
        capacity: pQuota(6),
      }),
    );
    // b (0 GPUs) before a (3); after b1 b holds 2 < 3, so b2; then a (3) < b (4): a1, and the 6 are taken.
    expect(ids(result.admitted)).toEqual([b1.leaseId, b2.leaseId, a1.leaseId]);
    expect(result.queued.map((q) => [q.lease.leaseId, q.reason, q.position])).toEqual([
      [a2.leaseId, 'account-quota', 1],
    ]);
  });

  it('weighs shares: a tenant of weight 2 holds twice the GPUs at the same share', () => {
    const queue = [1, 2, 3, 4, 5, 6].flatMap((i) => [
      waiting('heavy', 1, { queuedAtMs: NOW - i * MINUTE }),
      waiting('light', 1, { queuedAtMs: NOW - i * MINUTE }),
    ]);
    const result = admissionPass(
      input({ queue, quotas: { heavy: quota({ weight: 2 }) }, capacity: pQuota(6) }),
    );
    const byTenant = (tenantId: string) =>
      result.admitted.filter((a) => a.lease.tenantId === tenantId).length;
    expect([byTenant('heavy'), byTenant('light')]).toEqual([4, 2]);
  });

  it("orders a tenant's own leases by priority, then age; priority never jumps another tenant", () => {
    const old = waiting('a', 1, { queuedAtMs: NOW - 50 * MINUTE, priority: 100 });
    const urgent = waiting('a', 1, { queuedAtMs: NOW - MINUTE, priority: 900 });
    const mid = waiting('a', 1, { queuedAtMs: NOW - 40 * MINUTE });
    const otherOld = waiting('b', 1, { queuedAtMs: NOW - 45 * MINUTE, priority: 0 });
    const result = admissionPass(input({ queue: [old, urgent, mid, otherOld], capacity: pQuota(2) }));
    // Both tenants at 0 GPUs: the older head goes first (b's 45 min against a's urgent 1 min).
    expect(ids(result.admitted)).toEqual([otherOld.leaseId, urgent.leaseId]);
    expect(ids(result.queued)).toEqual([mid.leaseId, old.leaseId]);
  });

  it('takes a lease listed twice once', () => {
    const lease = waiting('a', 1);
    const result = admissionPass(input({ queue: [lease, lease] }));
    expect(ids(result.admitted)).toEqual([lease.leaseId]);
    expect(result.queued).toEqual([]);
  });
});

describe('reasons', () => {
  it('says quota when no candidate fits the tenant quota, whatever the capacity', () => {
    const lease = waiting('a', 4);
    const result = admissionPass(
      input({ queue: [lease], quotas: { a: quota({ maxGpus: 3 }) }, capacity: pQuota(0) }),
    );
    expect(result.queued[0]?.reason).toBe('quota');
  });

  it('checks the hourly limit and per-mode caps against the candidate', () => {
    const spotOnly = waiting('a', 2, { candidates: [candidate(2, 'spot')] });
    const priced = waiting('b', 2);
    const result = admissionPass(
      input({
        queue: [spotOnly, priced],
        quotas: {
          a: quota({ maxGpusByMode: { spot: 1 } }),
          b: quota({ maxHourlyMicroUsd: candidate(2).hourlyMicroUsd - 1 }),
        },
      }),
    );
    expect(result.queued.map((q) => q.reason)).toEqual(['quota', 'quota']);
  });

  it('falls through to the next candidate and reports the first capacity shortfall', () => {
    const lease = waiting('a', 2, { candidates: [candidate(2, 'reserved'), candidate(2, 'on-demand')] });
    const admitted = admissionPass(input({ queue: [lease] }));
    expect(admitted.admitted[0]?.launch.mode).toBe('on-demand');
    const none = admissionPass(input({ queue: [lease], capacity: pQuota(1) }));
    expect(none.queued[0]?.reason).toBe('capacity');
  });

  it('admits on reserved slots in the zone that has room', () => {
    const lease = waiting('a', 2, { candidates: [candidate(2, 'reserved')] });
    const result = admissionPass(
      input({
        queue: [lease],
        capacity: {
          vcpuQuotas: [],
          reservedSlots: [
            { region: 'us-east-1', zone: 'us-east-1a', instanceType: P3, freeInstances: 1 },
            { region: 'us-east-1', zone: 'us-east-1c', instanceType: P3, freeInstances: 2 },
          ],
        },
      }),
    );
    expect(result.admitted[0]?.zone).toBe('us-east-1c');
  });
});

describe('head-of-line blocking', () => {
  const big = (waitedMs: number) => waiting('big', 4, { queuedAtMs: NOW - waitedMs });
  const small = () => waiting('small', 1, { queuedAtMs: NOW });

  it('lets smaller leases backfill past a big one that has waited less than the hold time', () => {
    const lease = big(DEFAULT_HOLD_AFTER_MS - 1);
    const fillers = [small(), small()];
    const result = admissionPass(input({ queue: [lease, ...fillers], capacity: pQuota(4, 2) }));
    expect(ids(result.admitted)).toEqual(fillers.map((f) => f.leaseId));
    expect(result.queued[0]).toMatchObject({ reason: 'account-quota', holding: false });
  });

  it('holds the pool for a big lease that has waited the hold time: smaller ones behind it wait', () => {
    const lease = big(DEFAULT_HOLD_AFTER_MS);
    const fillers = [small(), small()];
    const result = admissionPass(input({ queue: [lease, ...fillers], capacity: pQuota(4, 2) }));
    expect(result.admitted).toEqual([]);
    expect(result.queued.map((q) => [q.lease.leaseId, q.holding])).toEqual([
      [lease.leaseId, true],
      [fillers[0]?.leaseId, false],
      [fillers[1]?.leaseId, false],
    ]);
  });

  it('does not hold for a lease that could never fit, nor against leases ahead of it', () => {
    const tooBig = waiting('big', 5, { queuedAtMs: NOW - DEFAULT_HOLD_AFTER_MS });
    const filler = small();
    const result = admissionPass(input({ queue: [tooBig, filler], capacity: pQuota(4) }));
    expect(ids(result.admitted)).toEqual([filler.leaseId]);
    expect(result.queued[0]?.holding).toBe(false);
  });

  it("holds the tenant's own quota for its big lease, not other tenants'", () => {
    const lease = waiting('a', 4, { queuedAtMs: NOW - 2 * DEFAULT_HOLD_AFTER_MS, priority: 900 });
    const own = waiting('a', 1);
    const other = waiting('b', 1);
    const result = admissionPass(
      input({
        queue: [lease, own, other],
        usage: { a: { gpus: 2, hourlyMicroUsd: 0, gpusByMode: {} } },
        quotas: { a: quota({ maxGpus: 4 }) },
      }),
    );
    expect(ids(result.admitted)).toEqual([other.leaseId]);
    expect(result.queued.map((q) => [q.lease.leaseId, q.reason, q.holding])).toEqual([
      [lease.leaseId, 'quota', true],
      [own.leaseId, 'quota', false],
    ]);
  });
});

describe('queue timeout', () => {
  it('fails a lease once it has waited its maxWaitMinutes', () => {
    const fresh = waiting('a', 1, { queuedAtMs: NOW - 59 * MINUTE });
    const expired = waiting('a', 1, { queuedAtMs: NOW - 60 * MINUTE });
    const patient = waiting('a', 1, { queuedAtMs: NOW - 61 * MINUTE, maxWaitMinutes: 120 });
    expect(splitTimedOut([fresh, expired, patient], NOW)).toEqual({
      waiting: [fresh, patient],
      timedOut: [expired],
    });
  });
});
