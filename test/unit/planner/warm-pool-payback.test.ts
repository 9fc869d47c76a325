import { describe, expect, it } from 'vitest';
import {
  paybackPoolSize,
  replayWarmPool,
  type WarmPoolEconomics,
} from '../../../shared/planning/warm-pool-payback';

const MINUTE = 60_000;
// Round numbers so every figure is computable by hand: $3.60/h is 1,000 µ$ a second.
const ECONOMICS: WarmPoolEconomics = {
  coldSeconds: 300,
  warmSeconds: 30,
  instanceMicroPerHour: 3_600_000,
  waitMicroPerHour: 3_600_000,
  volumeGb: 100,
  ebsMicroPerGbMonth: 73_000,
};

describe('replayWarmPool', () => {
  it('serves an arrival warm while a machine is ready and refills a taken one coldSeconds later', () => {
    // Size 1: t=0 warm, t=1 min cold (refill back at 5 min), t=6 min warm.
    const outcome = replayWarmPool([0, MINUTE, 6 * MINUTE], 730 * 60 * MINUTE, 1, ECONOMICS);
    expect(outcome).toMatchObject({ warm: 2, cold: 1 });
    // Start-up: 1 fill + 2 refills of 300 s at 1,000 µ$/s; storage: 100 GB for one 730-hour month at 73,000 µ$.
    expect(outcome.poolCostMicroUsd).toBe(3 * 300 * 1000 + 100 * 73_000);
    // Waiting saved: 2 × 270 s at 1,000 µ$/s.
    expect(outcome.waitSavedMicroUsd).toBe(2 * 270 * 1000);
    expect(outcome.netMicroUsd).toBe(540_000 - 8_200_000);
  });

  it('a pool of size 0 costs nothing and serves nothing warm', () => {
    expect(replayWarmPool([0, MINUTE], MINUTE, 0, ECONOMICS)).toEqual({
      size: 0,
      warm: 0,
      cold: 2,
      poolCostMicroUsd: 0,
      waitSavedMicroUsd: 0,
      netMicroUsd: 0,
    });
  });

  it('waiting valued at the machine price never pays: every warm start already paid a cold start', () => {
    const arrivals = Array.from({ length: 500 }, (_, i) => i * 10 * MINUTE);
    for (const size of [1, 2, 5])
      expect(replayWarmPool(arrivals, 5000 * MINUTE, size, ECONOMICS).netMicroUsd).toBeLessThan(0);
  });
});

describe('paybackPoolSize', () => {
  it('is the size with the largest positive net, 0 when none is positive', () => {
    const arrivals = [0, MINUTE, 2 * MINUTE, 3 * MINUTE];
    const valued = {
      ...ECONOMICS,
      waitMicroPerHour: 10 * ECONOMICS.instanceMicroPerHour,
      ebsMicroPerGbMonth: 0,
    };
    const outcomes = [0, 1, 2, 3, 4, 5].map((size) => replayWarmPool(arrivals, 4 * MINUTE, size, valued));
    // A warm arrival saves 2,700,000 µ$ and costs its machine's fill and refill, 600,000 µ$; a machine never taken costs its fill.
    expect(outcomes.map((o) => o.netMicroUsd)).toEqual([
      0, 2_100_000, 4_200_000, 6_300_000, 8_400_000, 8_100_000,
    ]);
    expect(paybackPoolSize(outcomes)).toBe(4);
    expect(paybackPoolSize(outcomes.map((o) => ({ ...o, netMicroUsd: -1 })))).toBe(0);
  });
});
