import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpotTraces } from '../../../shared/adapters/spot-trace-files';
import { hindsightCost } from '../../../shared/planning/hindsight';
import { replayPrices } from '../../../shared/planning/model';
import { SpotMarket } from '../../../shared/planning/spot-market';
import { DAY, FIXTURE_DATA_DIR, HOUR, lease, ORIGIN, traceOf } from './fixtures';

/*
 * Prices: on-demand $3.06/h; reserved $1.9278/h, a 30-day term per GPU
 * 720 h × $1.9278 = $1,388.016. Fixture spot ticks are one hour:
 *   tick 0: us-east-1a $1.00 (open), us-east-2a $1.50 (open)  → cheapest $1.00
 *   tick 1: us-east-1a closed,       us-east-2a $1.40 (open)  → $1.40
 *   tick 2: us-east-1a $1.20 (open), us-east-2a closed        → $1.20
 *   tick 3: both closed                                        → on-demand $3.06
 */
let market: SpotMarket;
beforeAll(async () => {
  market = new SpotMarket(await loadSpotTraces(FIXTURE_DATA_DIR), ORIGIN);
});
const prices = replayPrices();

describe('hindsightCost', () => {
  it('reserves the levels busy above break-even and runs batch on the cheapest open zone per tick', () => {
    // Inference 2 GPUs all 30 days, training 1 GPU for 10 of them, batch 1 GPU for the first 4 hours.
    const trace = traceOf([
      lease('a', 'inference', 2, 0, 30 * DAY),
      lease('b', 'training', 1, 0, 10 * DAY),
      lease('c', 'batch', 1, 0, 4 * HOUR),
    ]);
    const hindsight = hindsightCost(trace, market, prices);
    // Levels 1 and 2 are busy 100% of the term, level 3 only 33% (< 63%): reserve 2.
    expect(hindsight.reservedTerms).toEqual([{ termStartMs: ORIGIN, gpus: 2 }]);
    expect(hindsight.costMicroUsd).toEqual({
      // 2 × $1,388.016
      reserved: 2_776_032_000,
      // training's 240 h × $3.06 = $734.40, plus batch's tick 3 on-demand: $3.06
      'on-demand': 734_400_000 + 3_060_000,
      // batch in ticks 0-2: $1.00 + $1.40 + $1.20
      spot: 3_600_000,
    });
    // $2,776.032 + $737.46 + $3.60
    expect(hindsight.totalMicroUsd).toBe(3_517_092_000);
  });

  it('reserves a GPU busy more than 63% of the term when that is cheaper', () => {
    // Training now 20 of 30 days: the third GPU is busy 67%. Reserving it costs $1,388.016,
    // running it on-demand 480 h × $3.06 = $1,468.80: hindsight reserves 3.
    const trace = traceOf([lease('a', 'inference', 2, 0, 30 * DAY), lease('b', 'training', 1, 0, 20 * DAY)]);
    const hindsight = hindsightCost(trace, market, prices);
    expect(hindsight.reservedTerms).toEqual([{ termStartMs: ORIGIN, gpus: 3 }]);
    expect(hindsight.totalMicroUsd).toBe(3 * 1_388_016_000);
  });

  it('splits batch at tick boundaries', () => {
    // Half an hour in tick 0 at $1.00 and half in tick 1 at $1.40 = $0.50 + $0.70; the inference
    // lease only stretches the trace (two hours: 2 × $3.06 on-demand, nothing worth reserving).
    const trace = traceOf([
      lease('c', 'batch', 1, 0.5 * HOUR, 1.5 * HOUR),
      lease('a', 'inference', 1, 0, 2 * HOUR),
    ]);
    const hindsight = hindsightCost(trace, market, prices);
    expect(hindsight.costMicroUsd).toEqual({ reserved: 0, spot: 1_200_000, 'on-demand': 6_120_000 });
  });

  it('gives each 30-day term its own reserved count', () => {
    // 4 GPUs in the first term only, 1 GPU through both.
    const trace = traceOf([lease('a', 'inference', 3, 0, 30 * DAY), lease('b', 'training', 1, 0, 60 * DAY)]);
    const hindsight = hindsightCost(trace, market, prices);
    expect(hindsight.reservedTerms.map((term) => term.gpus)).toEqual([4, 1]);
    expect(hindsight.totalMicroUsd).toBe(5 * 1_388_016_000);
  });
});
