import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type BillingCheckpoint,
  chargeUpTo,
  costOfRun,
  EMPTY_CHECKPOINT,
  type InstanceRun,
  pricedSecondsOf,
} from '../../../shared/domain/billing';
import { costOfSeconds } from '../../../shared/domain/money';
import { type PriceChange, priceInForce } from '../../../shared/domain/price-changes';

const T0 = Date.parse('2026-11-30T12:00:00.000Z');
// p3.2xlarge spot: $0.918/h = 255 µ$ per second; then $1.224/h = 340 µ$ per second.
const LAUNCH_PRICE = 918_000;
const change = (offsetMs: number, priceMicroUsdPerHour: number): PriceChange => ({
  fromMs: T0 + offsetMs,
  priceMicroUsdPerHour,
  source: 'ec2-spot-price-history',
});
const spot = (priceChanges: readonly PriceChange[]): InstanceRun => ({
  launchedAtMs: T0,
  priceMicroUsdPerHour: LAUNCH_PRICE,
  priceChanges,
});

describe('spot billed at the price in force', () => {
  it('bills each second at the price in force at its start', () => {
    const run = spot([change(600_000, 1_224_000)]);
    // 10 minutes at 255 µ$/s, then 5 minutes at 340 µ$/s.
    expect(costOfRun(run, T0 + 900_000)).toBe(600 * 255 + 300 * 340);
    expect(pricedSecondsOf(run, 900)).toEqual([
      { seconds: 600, priceMicroPerHour: 918_000 },
      { seconds: 300, priceMicroPerHour: 1_224_000 },
    ]);
  });

  it('starts a change that falls inside a second at the next whole second of the run', () => {
    const run = spot([change(120_400, 1_224_000)]);
    expect(pricedSecondsOf(run, 200)).toEqual([
      { seconds: 121, priceMicroPerHour: 918_000 },
      { seconds: 79, priceMicroPerHour: 1_224_000 },
    ]);
  });

  it('charges the one-minute minimum at the launch price, whatever changed within it', () => {
    const run = spot([change(10_000, 3_060_000)]);
    expect(costOfRun(run, T0 + 30_000)).toBe(60 * 255);
    expect(pricedSecondsOf(run, 90)).toEqual([
      { seconds: 60, priceMicroPerHour: 918_000 },
      { seconds: 30, priceMicroPerHour: 3_060_000 },
    ]);
  });

  it('ignores changes recorded before launch and keeps the last known price while none is newer', () => {
    const run = spot([change(-3_600_000, 5_000_000), change(0, 4_000_000), change(300_000, 612_000)]);
    expect(costOfRun(run, T0 + 3_600_000)).toBe(300 * 255 + 3300 * 170);
    expect(priceInForce(run, T0 + 299_999)).toEqual({
      priceMicroUsdPerHour: LAUNCH_PRICE,
      sinceMs: T0,
      source: 'launch',
    });
    expect(priceInForce(run, T0 + 86_400_000)).toEqual({
      priceMicroUsdPerHour: 612_000,
      sinceMs: T0 + 300_000,
      source: 'ec2-spot-price-history',
    });
  });

  it('takes the changes in time order, the later of two in the same second winning', () => {
    const run = spot([change(200_500, 612_000), change(120_000, 1_224_000), change(200_100, 3_060_000)]);
    expect(pricedSecondsOf(run, 300)).toEqual([
      { seconds: 120, priceMicroPerHour: 918_000 },
      { seconds: 81, priceMicroPerHour: 1_224_000 },
      { seconds: 99, priceMicroPerHour: 612_000 },
    ]);
  });

  it('bills a run without changes (on-demand, reserved) exactly as one price', () => {
    const run = { launchedAtMs: T0, priceMicroUsdPerHour: 1_006_000 };
    expect(costOfRun(run, T0 + 433_200)).toBe(costOfSeconds(434, 1_006_000));
    expect(costOfRun(spot([]), T0 + 433_200)).toBe(costOfSeconds(434, LAUNCH_PRICE));
  });
});

/** The closed form, second by second: Σ price in force at each second's start / 3600, rounded once. */
function integral(run: InstanceRun, seconds: number): number {
  const changes = [...(run.priceChanges ?? [])]
    .filter((c) => c.fromMs > run.launchedAtMs)
    .sort((a, b) => a.fromMs - b.fromMs);
  let sum = 0;
  for (let k = 0; k < seconds; k += 1) {
    const startMs = run.launchedAtMs + k * 1000;
    const inForce = k < 60 ? undefined : changes.filter((c) => c.fromMs <= startMs).at(-1);
    sum += inForce?.priceMicroUsdPerHour ?? run.priceMicroUsdPerHour;
  }
  return Math.floor((sum + 1800) / 3600);
}

describe('property: spot ticks add up to the integral of the price history', () => {
  const price = fc.integer({ min: 1, max: 98_320_000 });
  const history = fc.array(
    fc.record({
      fromMs: fc.integer({ min: -600_000, max: 7_200_000 }).map((offset) => T0 + offset),
      priceMicroUsdPerHour: price,
      source: fc.constant('ec2-spot-price-history' as const),
    }),
    { maxLength: 8 },
  );
  const ticks = fc.array(fc.integer({ min: -5_000, max: 7_200_000 }), { maxLength: 12 });

  it('any tick sequence (late, repeated, out of order) then the close charges the integral to the micro-dollar', () => {
    fc.assert(
      fc.property(
        price,
        history,
        ticks,
        fc.integer({ min: 0, max: 7_200_000 }),
        (launch, changes, at, end) => {
          const run: InstanceRun = { launchedAtMs: T0, priceMicroUsdPerHour: launch, priceChanges: changes };
          let checkpoint: BillingCheckpoint = EMPTY_CHECKPOINT;
          let charged = 0;
          for (const offset of at) {
            const charge = chargeUpTo(run, checkpoint, T0 + offset, false);
            expect(charge.microUsd).toBeGreaterThanOrEqual(0);
            charged += charge.microUsd;
            checkpoint = charge.checkpoint;
          }
          const close = chargeUpTo(run, checkpoint, T0 + end, true);
          charged += close.microUsd;
          const seconds = close.checkpoint.billedSeconds;
          expect(seconds).toBe(Math.max(60, Math.ceil(end / 1000), ...at.map((o) => Math.floor(o / 1000))));
          expect(charged).toBe(integral(run, seconds));
        },
      ),
      { numRuns: 300 },
    );
  });
});
