import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deadlinePolicy } from '../../../../shared/domain/deadlines/policy';
import type { DeadlineAction } from '../../../../shared/domain/deadlines/policy-input';
import { greedyPolicy, uniformProgressPolicy } from '../../../../shared/planning/deadlines/baselines';
import {
  allOnDemandMicroUsd,
  type DeadlineJobSpec,
  type DeadlineMarket,
} from '../../../../shared/planning/deadlines/market';
import { offlineOptimumMicroUsd } from '../../../../shared/planning/deadlines/optimum';
import { simulateJob } from '../../../../shared/planning/deadlines/simulate';
import { actionsOf, marketOf, OD_PRICE, scripted, TICK_MS, type ZoneSketch } from './synthetic-market';

const POLICIES = { gpurent: deadlinePolicy, uniformProgress: uniformProgressPolicy, greedy: greedyPolicy };

const job = (
  workTicks: number,
  deadlineTicks: number,
  restartMs: number,
  homeRegion = 'r1',
): DeadlineJobSpec => ({
  startTick: 0,
  workMs: workTicks * TICK_MS,
  deadlineAfterMs: deadlineTicks * TICK_MS,
  restartMs,
  checkpointGb: 10,
  homeRegion,
});

/** The cheapest schedule by trying every action at every tick through the replay itself. */
function bruteForce(market: DeadlineMarket, spec: DeadlineJobSpec): number | null {
  const choices = actionsOf(market);
  const ticks = Math.floor(spec.deadlineAfterMs / TICK_MS);
  let best: number | null = null;
  const script: DeadlineAction[] = new Array(ticks);
  const visit = (tick: number): void => {
    if (tick === ticks) {
      const outcome = simulateJob(market, spec, scripted(script));
      if (outcome.finished && (best === null || outcome.costMicroUsd < best)) best = outcome.costMicroUsd;
      return;
    }
    for (const action of choices) {
      script[tick] = action;
      visit(tick + 1);
    }
  };
  visit(0);
  return best;
}

const capacity = (ticks: number) =>
  fc.string({ unit: fc.constantFrom('.', 'x'), minLength: ticks, maxLength: ticks });

/** Small worlds: one or two zones (in one or two regions), up to 6 ticks, prices per tick, a transfer rate. */
const smallCase = fc
  .record({
    ticks: fc.integer({ min: 2, max: 6 }),
    zones: fc.integer({ min: 1, max: 2 }),
    twoRegions: fc.boolean(),
    transferPerGb: fc.constantFrom(0, 20_000, 200_000),
    restartMs: fc.constantFrom(0, 30_000, TICK_MS, 90_000),
  })
  .chain((shape) =>
    fc.record({
      shape: fc.constant(shape),
      zones: fc.array(
        fc.record({
          capacity: capacity(shape.ticks),
          prices: fc.array(fc.integer({ min: 100_000, max: 2_900_000 }), {
            minLength: shape.ticks,
            maxLength: shape.ticks,
          }),
        }),
        { minLength: shape.zones, maxLength: shape.zones },
      ),
      work: fc.integer({ min: 1, max: shape.ticks }),
    }),
  );

describe('the offline optimum', () => {
  it('equals brute-force enumeration of every schedule on worlds small enough to enumerate', () => {
    fc.assert(
      fc.property(smallCase, ({ shape, zones, work }) => {
        const sketches: ZoneSketch[] = zones.map((zone, i) => ({
          zone: `z${i}`,
          region: shape.twoRegions && i === 1 ? 'r2' : 'r1',
          ...zone,
        }));
        const market = marketOf(sketches, { transferPerGb: shape.transferPerGb });
        const spec = job(work, shape.ticks, shape.restartMs);
        const optimum = offlineOptimumMicroUsd(market, spec);
        const brute = bruteForce(market, spec);
        if (brute === null) expect(optimum).toBeNull();
        else expect(optimum).toBeCloseTo(brute, 6);
      }),
      { numRuns: 80, seed: 20 },
    );
  });

  it('is all on-demand when spot never has capacity, and the spot price when it always has', () => {
    const never = marketOf([{ zone: 'a', region: 'r1', capacity: 'x'.repeat(40), prices: 900_000 }]);
    const always = marketOf([{ zone: 'a', region: 'r1', capacity: '.'.repeat(40), prices: 900_000 }]);
    const spec = job(20, 40, 90_000);
    // 20 ticks of work and a 2-tick restart.
    expect(offlineOptimumMicroUsd(never, spec)).toBeCloseTo((22 * TICK_MS * OD_PRICE) / 3_600_000, 6);
    expect(allOnDemandMicroUsd(never, spec)).toBeCloseTo((22 * TICK_MS * OD_PRICE) / 3_600_000, 6);
    expect(offlineOptimumMicroUsd(always, spec)).toBeCloseTo((22 * TICK_MS * 900_000) / 3_600_000, 6);
  });

  it('is null when even all on-demand cannot finish in time', () => {
    const market = marketOf([{ zone: 'a', region: 'r1', capacity: '.'.repeat(10), prices: 900_000 }]);
    expect(offlineOptimumMicroUsd(market, job(9, 10, 90_000))).toBeNull();
    expect(offlineOptimumMicroUsd(market, job(8, 10, 90_000))).not.toBeNull();
  });
});

describe('the policies against the optimum', () => {
  it('never beat it, on the enumerable worlds', () => {
    fc.assert(
      fc.property(smallCase, ({ shape, zones, work }) => {
        const market = marketOf(
          zones.map((zone, i) => ({
            zone: `z${i}`,
            region: shape.twoRegions && i === 1 ? 'r2' : 'r1',
            ...zone,
          })),
          { transferPerGb: shape.transferPerGb },
        );
        const spec = job(work, shape.ticks, shape.restartMs);
        const optimum = offlineOptimumMicroUsd(market, spec);
        for (const policy of Object.values(POLICIES)) {
          const outcome = simulateJob(market, spec, policy);
          if (outcome.finished && optimum !== null)
            expect(outcome.costMicroUsd).toBeGreaterThanOrEqual(optimum - 1e-6);
        }
      }),
      { numRuns: 200, seed: 21 },
    );
  });

  it.each(Object.entries(POLICIES))(
    '%s equals it when spot always or never has capacity and the slack holds a spot restart',
    (_, policy) => {
      for (const capacityChar of ['.', 'x']) {
        const market = marketOf([
          { zone: 'a', region: 'r1', capacity: capacityChar.repeat(60), prices: 900_000 },
        ]);
        // 30 ticks of work, 2 of restart. Slack is the deadline less the work, a restart onto
        // on-demand and a tick (27 ticks here), and a spot start spends 2 more of it: from 35 ticks on,
        // spot can run to the end.
        for (const deadline of [35, 45, 60]) {
          const spec = job(30, deadline, 90_000);
          const outcome = simulateJob(market, spec, policy);
          expect(outcome.finished).toBe(true);
          expect(outcome.costMicroUsd).toBeCloseTo(offlineOptimumMicroUsd(market, spec) as number, 6);
        }
      }
    },
  );
});
