import { describe, expect, it } from 'vitest';
import type { Pool } from '../../../shared/domain/placement';
import {
  planReclaim,
  planReturnToSpot,
  RECLAIM_WARNING_MS,
  RESTART_MS,
} from '../../../shared/domain/spot-reclaim';

const WARNED = Date.UTC(2026, 0, 1, 12);

function pool(mode: Pool['mode'], zone: string, usdPerHour: number, available = true): Pool {
  return {
    region: zone.slice(0, -1),
    zone,
    instanceType: 'p3.2xlarge',
    mode,
    priceMicroUsdPerHour: Math.round(usdPerHour * 1_000_000),
    available,
  };
}

const reclaimed = pool('spot', 'us-east-2a', 0.93);
const onDemand = pool('on-demand', 'us-east-1a', 3.06);

describe('planReclaim', () => {
  const batch = {
    workload: 'batch',
    instanceType: 'p3.2xlarge',
    reclaimedPool: reclaimed,
    warnedAtMs: WARNED,
    fallback: 'on-demand',
  } as const;

  it('resumes in the cheapest other spot zone two minutes after the warning, with a five-minute restart', () => {
    // The reclaimed zone still looks available (the probe lags); its back-off keeps it out.
    const plan = planReclaim({
      ...batch,
      pools: [reclaimed, pool('spot', 'us-east-1a', 1.65), pool('spot', 'us-east-1d', 1.22), onDemand],
    });
    expect(RECLAIM_WARNING_MS).toBe(120_000);
    expect(RESTART_MS).toBe(300_000);
    expect(plan.relaunchAtMs).toBe(WARNED + 120_000);
    expect(plan.restartMs).toBe(300_000);
    expect(plan.pool?.zone).toBe('us-east-1d');
    expect(plan.pool?.mode).toBe('spot');
    expect(plan.failedPool).toEqual({ ...reclaimed, lastCapacityFailureAtMs: WARNED });
    expect(plan.reason).toContain('spot reclaimed in us-east-2a; resuming on spot us-east-1d');
    expect(plan.reason).toContain('us-east-2a failed 0 s ago');
  });

  it('falls back to on-demand when no other spot zone has capacity', () => {
    const plan = planReclaim({
      ...batch,
      pools: [reclaimed, pool('spot', 'us-east-1a', 1.65, false), onDemand],
    });
    expect(plan.pool).toEqual(onDemand);
    expect(plan.reason).toContain('falling back to on-demand us-east-1a');
  });

  it('never resumes inference on spot, however cheap', () => {
    const plan = planReclaim({
      ...batch,
      workload: 'inference',
      pools: [reclaimed, pool('spot', 'us-east-1d', 0.1), onDemand],
    });
    expect(plan.pool?.mode).toBe('on-demand');
    expect(plan.reason).toContain('inference never resumes on spot');
  });

  it('finds nowhere to go for a lease without a fallback when spot is gone', () => {
    const plan = planReclaim({ ...batch, fallback: null, pools: [reclaimed, onDemand] });
    expect(plan.pool).toBeNull();
    expect(plan.reason).toContain('the lease has no fallback');
  });
});

describe('planReturnToSpot', () => {
  const base = {
    workload: 'batch',
    instanceType: 'p3.2xlarge',
    currentPriceMicroUsdPerHour: 3_060_000,
    nowMs: WARNED,
    pools: [pool('spot', 'us-east-1d', 1.0), onDemand],
  } as const;

  it('moves a lease back once its expected remaining time makes the saving beat the restart', () => {
    // Restart: 5 min at $1.00/h = $0.0833. Saving: $2.06/h × age. Break-even age ≈ 2.43 min.
    const young = planReturnToSpot({ ...base, leaseStartedAtMs: WARNED - 2 * 60_000 });
    expect(young.pool).toBeNull();
    expect(young.reason).toContain('would not pay for a 5-minute restart');
    const older = planReturnToSpot({ ...base, leaseStartedAtMs: WARNED - 3 * 60_000 });
    expect(older.pool?.zone).toBe('us-east-1d');
  });

  it('stays put without spot capacity, and never moves inference', () => {
    const old = WARNED - 3_600_000;
    expect(planReturnToSpot({ ...base, leaseStartedAtMs: old, pools: [onDemand] }).pool).toBeNull();
    const inference = planReturnToSpot({ ...base, workload: 'inference', leaseStartedAtMs: old });
    expect(inference).toEqual({ pool: null, reason: 'inference never goes to spot' });
  });
});
