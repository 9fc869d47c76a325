import { describe, expect, it } from 'vitest';
import {
  billableSeconds,
  chargeUpTo,
  costOfRun,
  EMPTY_CHECKPOINT,
  MINIMUM_BILLED_SECONDS,
} from '../../../shared/domain/billing';
import { costOfSeconds, formatUsd, usdToMicro } from '../../../shared/domain/money';

const T0 = Date.parse('2026-11-30T12:00:00.000Z');
// g5.xlarge in us-east-1: $1.006/h = 1,006,000 µ$/h.
const run = { launchedAtMs: T0, priceMicroUsdPerHour: 1_006_000 };
// p3.2xlarge: $3.06/h = 850 µ$ per second exactly, handy for hand checks.
const p3 = { launchedAtMs: T0, priceMicroUsdPerHour: 3_060_000 };

describe('billable seconds of a closed run', () => {
  it.each([
    [0, 60],
    [59_000, 60],
    [60_000, 60],
    [61_000, 61],
    [60_001, 61],
    [3_600_000, 3600],
  ])('a run of %i ms is billed %i s', (durationMs, seconds) => {
    expect(billableSeconds(run, T0 + durationMs, true)).toBe(seconds);
  });

  it('counts only whole elapsed seconds while running, never under the minimum', () => {
    expect(billableSeconds(run, T0 + 61_999, false)).toBe(61);
    expect(billableSeconds(run, T0 + 5_000, false)).toBe(MINIMUM_BILLED_SECONDS);
  });

  it('treats a clock before launch as no time at all', () => {
    expect(billableSeconds(run, T0 - 10_000, true)).toBe(60);
  });
});

describe('cost of a run', () => {
  it('is max(60, ceil(duration)) × price, rounded half up to the micro-dollar', () => {
    expect(costOfRun(p3, T0)).toBe(60 * 850);
    expect(costOfRun(p3, T0 + 59_000)).toBe(51_000);
    expect(costOfRun(p3, T0 + 61_000)).toBe(61 * 850);
    // 61 s of $1.006/h = 17.04611… cents → 17,046 µ$
    expect(costOfRun(run, T0 + 60_500)).toBe(17_046);
  });

  it('stays exact in integers for a month-long run', () => {
    expect(costOfRun(p3, T0 + 30 * 86_400_000)).toBe(30 * 86_400 * 850);
  });
});

describe('metering ticks', () => {
  it('charges the minimum on the first tick and the rest as time passes', () => {
    const first = chargeUpTo(p3, EMPTY_CHECKPOINT, T0 + 30_000, false);
    expect(first).toEqual({
      seconds: 60,
      microUsd: 51_000,
      checkpoint: { billedSeconds: 60, billedMicroUsd: 51_000 },
    });
    const second = chargeUpTo(p3, first.checkpoint, T0 + 90_000, false);
    expect(second.seconds).toBe(30);
    expect(second.microUsd).toBe(30 * 850);
  });

  it('charges nothing for a repeated tick', () => {
    const first = chargeUpTo(run, EMPTY_CHECKPOINT, T0 + 120_000, false);
    const again = chargeUpTo(run, first.checkpoint, T0 + 120_000, false);
    expect(again.seconds).toBe(0);
    expect(again.microUsd).toBe(0);
    expect(again.checkpoint).toEqual(first.checkpoint);
  });

  it('charges nothing for a late tick older than the checkpoint', () => {
    const first = chargeUpTo(run, EMPTY_CHECKPOINT, T0 + 180_000, false);
    const late = chargeUpTo(run, first.checkpoint, T0 + 120_000, false);
    expect(late.seconds).toBe(0);
    expect(late.microUsd).toBe(0);
  });

  it('adds up to exactly the closed-form cost whatever the tick pattern, across windows', () => {
    // Ticks at odd instants, one repeated, one late, one skipped window; close at 7m 13.2s.
    const ticks = [12_300, 60_000, 60_000, 185_000, 120_000, 361_700];
    const end = T0 + 433_200;
    let checkpoint = EMPTY_CHECKPOINT;
    let charged = 0;
    for (const offset of ticks) {
      const charge = chargeUpTo(run, checkpoint, T0 + offset, false);
      expect(charge.seconds).toBeGreaterThanOrEqual(0);
      charged += charge.microUsd;
      checkpoint = charge.checkpoint;
    }
    const final = chargeUpTo(run, checkpoint, end, true);
    charged += final.microUsd;
    expect(final.checkpoint.billedSeconds).toBe(434);
    expect(charged).toBe(costOfRun(run, end));
    expect(charged).toBe(costOfSeconds(434, 1_006_000));
  });

  it('never bills a closed run below what earlier ticks charged', () => {
    const tick = chargeUpTo(run, EMPTY_CHECKPOINT, T0 + 100_000, false);
    const close = chargeUpTo(run, tick.checkpoint, T0 + 99_000, true);
    expect(close.seconds).toBe(0);
    expect(close.checkpoint.billedSeconds).toBe(100);
  });
});

describe('money', () => {
  it('converts catalog prices without float error and formats exactly', () => {
    expect(usdToMicro(3.06)).toBe(3_060_000);
    expect(usdToMicro(1.9278)).toBe(1_927_800);
    expect(formatUsd(16_767)).toBe('0.016767');
    expect(formatUsd(-1_500_000)).toBe('-1.500000');
  });

  it('refuses a product beyond exact integer range', () => {
    expect(() => costOfSeconds(Number.MAX_SAFE_INTEGER, 1_000_000)).toThrow(/exact integer range/);
  });
});
