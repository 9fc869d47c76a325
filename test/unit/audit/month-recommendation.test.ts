import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadSpotTraces } from '../../../shared/adapters/spot-trace-files';
import { monthDemand } from '../../../shared/planning/month-demand';
import { recommendForMonth } from '../../../shared/planning/month-recommendation';
import { DAY, NOV_2026, ranLease } from './lease-views';

/** One zone, always with capacity, at $1.00/h. */
const SPOT_DATA = fileURLToPath(new URL('../../fixtures/audit/spot-data', import.meta.url));
const MONTH_END = NOV_2026 + 30 * DAY;

describe('recommendForMonth', () => {
  it('matches the hand-computed recommendation for a month of demand', async () => {
    const leases = [
      ranLease('a', 'training', 2, 'on-demand', NOV_2026 - 5 * DAY, undefined), // all month, 2 GPUs
      ranLease('b', 'training', 1, 'on-demand', NOV_2026, NOV_2026 + 10 * DAY),
      ranLease('c', 'batch', 1, 'on-demand', NOV_2026 + 10 * DAY, NOV_2026 + 15 * DAY),
      ranLease('d', 'batch', 2, 'spot', NOV_2026 + 20 * DAY, NOV_2026 + 21 * DAY),
      ranLease('e', 'inference', 1, 'on-demand', NOV_2026, NOV_2026 + DAY),
      ranLease('october', 'training', 1, 'on-demand', NOV_2026 - 9 * DAY, NOV_2026 - DAY),
    ];
    const demand = monthDemand(leases, NOV_2026, MONTH_END);
    expect(demand.trace.leases.map((l) => l.id)).toEqual(['a', 'b', 'e', 'c', 'd']);

    const r = recommendForMonth(demand, await loadSpotTraces(SPOT_DATA));

    // p3.2xlarge, us-east-1: on-demand $3.06/h, reserved 0.63 x $3.06 = $1.9278/h (break-even 63%).
    expect(r.model).toMatchObject({
      instanceType: 'p3.2xlarge',
      onDemandMicroUsdPerHour: 3_060_000,
      reservedMicroUsdPerHour: 1_927_800,
    });
    // Training + inference levels over the 720 h month: 720 h, 720 h, 240 h (b), 24 h (b + e).
    expect(r.reservedGpus).toBe(2);
    expect(r.reservedReason).toBe(
      '2 GPUs at once were in use 100% of the last 30 days, above the 63% at which a reserved GPU pays for itself; a 3rd GPU at once only 33% of the time',
    );
    // 2 GPUs x 720 h x ($3.06 - $1.9278)
    expect(r.reservedSavingMicroUsd).toBe(1_630_368_000);
    // As ran: (1440 + 240 + 120 + 24) GPU-h on-demand x $3.06 + 48 GPU-h spot x $1.00.
    expect(r.asRanMicroUsd).toBe(5_629_440_000);
    // Policy (nothing reserved in its first term): 1704 GPU-h on-demand + batch's 168 GPU-h on spot.
    expect(r.policyMicroUsd).toBe(5_382_240_000);
    // Batch lease c moved to spot: 120 GPU-h x ($3.06 - $1.00).
    expect(r.policySavingMicroUsd).toBe(247_200_000);
    expect(r.recommendedMicroUsd).toBe(5_629_440_000 - 247_200_000 - 1_630_368_000);
    // Hindsight: 2 reserved (1440 h x $1.9278) + 264 GPU-h on-demand + 168 GPU-h spot, which the
    // recommendation reaches here, as nothing in this month surprises the policy.
    expect(r.hindsightMicroUsd).toBe(2_776_032_000 + 807_840_000 + 168_000_000);
    expect(r.hindsightMicroUsd).toBe(r.recommendedMicroUsd);
    expect(r.savingShare).toBeCloseTo(1_877_568_000 / 5_629_440_000, 12);
    expect(r.spotCandidates).toEqual([{ workload: 'batch', leases: 1, gpuHours: 120 }]);
    expect(r.interruptions).toBe(0);
  });

  it('replays a month to date that ends mid-second (the current month, asked at any instant)', async () => {
    const now = NOV_2026 + 10 * DAY + 1_234;
    const leases = [ranLease('a', 'training', 1, 'on-demand', NOV_2026, undefined)];
    const r = recommendForMonth(monthDemand(leases, NOV_2026, now), await loadSpotTraces(SPOT_DATA));
    // The one GPU was busy all along: one reserved GPU over the 864,001 whole seconds (240 h and
    // 1.234 s, rounded) saves 864,001 s at $3.06/h (734,400,850 µ$) less at $1.9278/h (462,672,536 µ$).
    expect(r.reservedGpus).toBe(1);
    expect(r.reservedSavingMicroUsd).toBe(734_400_850 - 462_672_536);
  });

  it('recommends no commitment when no GPU level is busy above break-even', async () => {
    const leases = [ranLease('b', 'training', 4, 'on-demand', NOV_2026, NOV_2026 + 15 * DAY)];
    const r = recommendForMonth(monthDemand(leases, NOV_2026, MONTH_END), await loadSpotTraces(SPOT_DATA));
    expect(r.reservedGpus).toBe(0);
    expect(r.reservedSavingMicroUsd).toBe(0);
    expect(r.policySavingMicroUsd).toBe(0);
    expect(r.spotCandidates).toEqual([]);
  });

  it('replays a 31-day month as one term: no commitment paid in full for its last day', async () => {
    const october = Date.UTC(2026, 9, 1);
    const leases = [ranLease('t', 'training', 2, 'on-demand', october, october + 31 * DAY)];
    const r = recommendForMonth(
      monthDemand(leases, october, october + 31 * DAY),
      await loadSpotTraces(SPOT_DATA),
    );
    // 2 GPUs x 744 h on-demand, as it ran; the commitment is the recommendation for the next term.
    expect(r.policyMicroUsd).toBe(2 * 744 * 3_060_000);
    expect(r.asRanMicroUsd).toBe(r.policyMicroUsd);
    expect(r.reservedGpus).toBe(2);
    expect(r.reservedSavingMicroUsd).toBe(2 * 744 * (3_060_000 - 1_927_800));
  });
});
