import { describe, expect, it } from 'vitest';
import { type DeadlineSetting, evaluateSetting } from '../../../shared/planning/deadlines/evaluate';
import { marketOf, OD_PRICE, scripted } from '../domain/deadlines/synthetic-market';

/** Spot at a third of on-demand for the first 30 ticks, then none for 30: the order of the starts matters. */
const market = marketOf([
  { zone: 'z1', region: 'r1', capacity: `${'.'.repeat(30)}${'x'.repeat(30)}`, prices: OD_PRICE / 3 },
]);
/** 10 minutes of work, a 20-minute deadline, restarts of one tick. */
const setting: DeadlineSetting = { workHours: 10 / 60, deadlineFactor: 2, restartMinutes: 1 };
const terms = { checkpointGb: 1, homeRegion: 'r1' };
const onDemandAlways = scripted(
  Array.from({ length: 60 }, () => ({ kind: 'on-demand' as const, region: 'r1' })),
);

describe('evaluateSetting', () => {
  it("keeps each job's cost / optimum in start order, and their mean is the setting's figure", () => {
    const outcome = evaluateSetting(market, setting, [0, 35], terms, { onDemand: onDemandAlways });
    const figures = outcome.policies.onDemand;

    expect(outcome.jobs).toBe(2);
    const [onSpotStart, onDrySpell] = figures?.jobCostsVsOptimum ?? [];
    // At tick 0 the optimum runs on spot, so all on-demand costs more than it; from tick 35 on-demand is the optimum.
    expect(onSpotStart).toBeGreaterThan(1.5);
    expect(onDrySpell).toBeCloseTo(1, 6);
    expect(figures?.costVsOptimum).toBeCloseTo(((onSpotStart as number) + (onDrySpell as number)) / 2, 9);
  });
});
