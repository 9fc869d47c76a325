import { describe, expect, it } from 'vitest';
import {
  choosePool,
  FAILED_POOL_BACKOFF_MS,
  isBackedOff,
  type Pool,
  poolKey,
  withCapacityFailure,
} from '../../../shared/domain/placement';

const NOW = Date.UTC(2026, 0, 1);

function spot(zone: string, usdPerHour: number, extra: Partial<Pool> = {}): Pool {
  return {
    region: zone.slice(0, -1),
    zone,
    instanceType: 'p3.2xlarge',
    mode: 'spot',
    priceMicroUsdPerHour: Math.round(usdPerHour * 1_000_000),
    available: true,
    ...extra,
  };
}

const request = { instanceType: 'p3.2xlarge', mode: 'spot', nowMs: NOW } as const;

describe('choosePool', () => {
  it('picks the cheapest pool of the mode and type and says why', () => {
    const placement = choosePool(request, [
      spot('us-east-1a', 1.65),
      spot('us-east-2a', 0.93),
      { ...spot('us-east-2b', 0.5), mode: 'on-demand' },
      { ...spot('us-west-2a', 0.4), instanceType: 'g5.xlarge' },
    ]);
    expect(placement.pool?.zone).toBe('us-east-2a');
    expect(placement.reason).toBe('spot us-east-2a at $0.930000/h, the cheapest open pool');
  });

  it('is short of capacity when pools that would fit lack room only for now, not when they cost too much', () => {
    const backedOff = choosePool(request, [
      withCapacityFailure(spot('us-east-1a', 1), NOW - 1000),
      spot('us-east-1b', 1, { available: false }),
    ]);
    expect(backedOff.pool).toBeNull();
    expect(backedOff.shortOfCapacity).toBe(true);
    const tooDear = choosePool({ ...request, maxHourlyMicroUsd: 100_000 }, [spot('us-east-1a', 1)]);
    expect(tooDear.pool).toBeNull();
    expect(tooDear.shortOfCapacity).toBe(false);
    expect(choosePool(request, [spot('us-east-1a', 1)]).shortOfCapacity).toBe(false);
  });

  it('skips pools without capacity and pools inside their back-off, naming them', () => {
    const placement = choosePool(request, [
      spot('us-east-2a', 0.93, { available: false }),
      spot('us-east-2b', 0.95, { lastCapacityFailureAtMs: NOW - 40_000 }),
      spot('us-east-1a', 1.65),
    ]);
    expect(placement.pool?.zone).toBe('us-east-1a');
    expect(placement.reason).toContain('us-east-2a has no capacity');
    expect(placement.reason).toContain('us-east-2b failed 40 s ago');
  });

  it('tries a failed pool again once the back-off is over', () => {
    const failed = spot('us-east-2b', 0.95, { lastCapacityFailureAtMs: NOW - FAILED_POOL_BACKOFF_MS });
    expect(isBackedOff(failed, NOW)).toBe(false);
    expect(isBackedOff(failed, NOW - 1)).toBe(true);
    expect(choosePool(request, [spot('us-east-1a', 1.65), failed]).pool?.zone).toBe('us-east-2b');
  });

  it('returns no pool, with the reason, when nothing can launch', () => {
    const placement = choosePool(request, [spot('us-east-2a', 0.93, { available: false })]);
    expect(placement.pool).toBeNull();
    expect(placement.reason).toBe(
      'no spot pool for p3.2xlarge can launch now (skipped: us-east-2a has no capacity)',
    );
  });

  it('keeps the callers order between equal prices', () => {
    const pools = [spot('us-west-2a', 0.918), spot('us-east-2a', 0.918)];
    expect(choosePool(request, pools).pool?.zone).toBe('us-west-2a');
  });

  it('marks a capacity failure without touching the original pool', () => {
    const pool = spot('us-east-1a', 1.65);
    const failed = withCapacityFailure(pool, NOW);
    expect(failed.lastCapacityFailureAtMs).toBe(NOW);
    expect(pool.lastCapacityFailureAtMs).toBeUndefined();
    expect(poolKey(failed)).toBe(poolKey(pool));
    expect(poolKey(pool)).toBe('spot/us-east-1/us-east-1a/p3.2xlarge');
  });
});
