import { describe, expect, it } from 'vitest';
import {
  assignReservedGpus,
  breakEvenUtilization,
  busyTimeByLevel,
  commitmentCost,
  type DemandSegment,
  gpusWorthReserving,
  RESERVATION_TERM_MS,
  recommendReservedGpus,
} from '../../../shared/domain/reservations';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** p3.2xlarge in us-east-1: $3.06/h on-demand, 0.63 of it reserved. */
const ON_DEMAND = 3_060_000;
const RESERVED = 1_927_800;

describe('busyTimeByLevel', () => {
  it('gives, per level, the time at least that many GPUs were in use inside the window', () => {
    const history: DemandSegment[] = [
      { fromMs: 0, toMs: 10, gpus: 2 },
      { fromMs: 10, toMs: 20, gpus: 1 },
      { fromMs: 20, toMs: 30, gpus: 3 },
    ];
    // Window [5, 25): 5 ms at 2 GPUs, 10 at 1, 5 at 3 → ≥1: 20, ≥2: 10, ≥3: 5.
    expect(busyTimeByLevel(history, 5, 25)).toEqual([20, 10, 5]);
    expect(busyTimeByLevel(history, 30, 40)).toEqual([]);
  });
});

describe('gpusWorthReserving', () => {
  it('counts the levels busy strictly more than the break-even share', () => {
    expect(gpusWorthReserving([20, 10, 5], 20, 0.5)).toBe(1);
    expect(gpusWorthReserving([20, 11, 5], 20, 0.5)).toBe(2);
    expect(gpusWorthReserving([], 20, 0.5)).toBe(0);
  });
});

describe('prices of a commitment', () => {
  it('breaks even at reserved / on-demand', () => {
    expect(breakEvenUtilization(RESERVED, ON_DEMAND)).toBeCloseTo(0.63, 10);
  });

  it('charges a whole 30-day term per GPU: 720 h × $1.9278 = $1,388.016', () => {
    expect(RESERVATION_TERM_MS).toBe(30 * DAY);
    expect(commitmentCost(1, RESERVED)).toBe(1_388_016_000);
    expect(commitmentCost(3, RESERVED)).toBe(3 * 1_388_016_000);
  });
});

describe('recommendReservedGpus', () => {
  const prices = { reservedMicroUsdPerHour: RESERVED, onDemandMicroUsdPerHour: ON_DEMAND };
  const termStartMs = 10 * DAY;

  it('reserves the GPUs busy above break-even over the last three days', () => {
    // One GPU all three days, a second for two of them (67% > 63%), a third for one (33%).
    const history: DemandSegment[] = [
      { fromMs: 7 * DAY, toMs: 8 * DAY, gpus: 3 },
      { fromMs: 8 * DAY, toMs: 9 * DAY, gpus: 2 },
      { fromMs: 9 * DAY, toMs: 10 * DAY, gpus: 1 },
    ];
    const decision = recommendReservedGpus({ ...prices, history, termStartMs });
    expect(decision.gpus).toBe(2);
    expect(decision.breakEvenUtilization).toBeCloseTo(0.63, 10);
    expect(decision.reason).toBe(
      '2 GPUs at once were in use 67% of the last 3 days, above the 63% at which a reserved GPU pays for itself; a 3rd GPU at once only 33% of the time',
    );
  });

  it('does not reserve a GPU busy just under break-even', () => {
    // The second GPU is busy 1.8 of 3 days: 60%.
    const history: DemandSegment[] = [
      { fromMs: 7 * DAY, toMs: 8.8 * DAY, gpus: 2 },
      { fromMs: 8.8 * DAY, toMs: 10 * DAY, gpus: 1 },
    ];
    expect(recommendReservedGpus({ ...prices, history, termStartMs }).gpus).toBe(1);
  });

  it('never looks at demand from the term start on, nor before the lookback', () => {
    const history: DemandSegment[] = [
      { fromMs: 0, toMs: 7 * DAY, gpus: 50 },
      { fromMs: 7 * DAY, toMs: 10 * DAY, gpus: 2 },
      { fromMs: 10 * DAY, toMs: 20 * DAY, gpus: 40 },
    ];
    expect(recommendReservedGpus({ ...prices, history, termStartMs }).gpus).toBe(2);
    expect(recommendReservedGpus({ ...prices, history, termStartMs, lookbackMs: 10 * DAY }).gpus).toBe(50);
  });

  it('reserves nothing without history, and says so', () => {
    const decision = recommendReservedGpus({ ...prices, history: [], termStartMs });
    expect(decision.gpus).toBe(0);
    expect(decision.reason).toBe(
      'no GPU was in use in the last 3 days; a reserved GPU pays for itself above 63% use',
    );
  });

  it('names a lookback of part days to the tenth (an audit of the month so far)', () => {
    const lookbackMs = 29 * DAY + 0.926066 * DAY;
    const decision = recommendReservedGpus({ ...prices, history: [], termStartMs, lookbackMs });
    expect(decision.reason).toBe(
      'no GPU was in use in the last 29.9 days; a reserved GPU pays for itself above 63% use',
    );
  });
});

describe('assignReservedGpus', () => {
  it('carries leases that cannot be interrupted first, oldest first, the last one in part', () => {
    const assigned = assignReservedGpus(5, [
      { leaseId: 'batch-old', gpus: 2, startedAtMs: 0, interruptible: true },
      { leaseId: 'inference-young', gpus: 2, startedAtMs: 10, interruptible: false },
      { leaseId: 'training-old', gpus: 2, startedAtMs: 5, interruptible: false },
      { leaseId: 'batch-young', gpus: 1, startedAtMs: 20, interruptible: true },
    ]);
    expect(Object.fromEntries(assigned)).toEqual({
      'training-old': 2,
      'inference-young': 2,
      'batch-old': 1,
      'batch-young': 0,
    });
  });

  it('takes a smaller commitment off the youngest leases', () => {
    const leases = [
      { leaseId: 'old', gpus: 3, startedAtMs: 0, interruptible: false },
      { leaseId: 'young', gpus: 3, startedAtMs: 1, interruptible: false },
    ];
    expect(Object.fromEntries(assignReservedGpus(4, leases))).toEqual({ old: 3, young: 1 });
    expect(Object.fromEntries(assignReservedGpus(0, leases))).toEqual({ old: 0, young: 0 });
  });
});
