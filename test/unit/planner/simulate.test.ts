import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpotTraces } from '../../../shared/adapters/spot-trace-files';
import type { DemandTrace } from '../../../shared/planning/demand-trace';
import { replayPrices } from '../../../shared/planning/model';
import { simulatePolicy } from '../../../shared/planning/simulate';
import { SpotMarket } from '../../../shared/planning/spot-market';
import { DAY, FIXTURE_DATA_DIR, HOUR, lease, ORIGIN, traceOf } from './fixtures';

let market: SpotMarket;
beforeAll(async () => {
  market = new SpotMarket(await loadSpotTraces(FIXTURE_DATA_DIR), ORIGIN);
});
const prices = replayPrices();
const simulate = (trace: DemandTrace) => simulatePolicy({ trace, market, prices });

/** One 30-day reserved GPU: 720 h × $1.9278. */
const TERM_GPU = 1_388_016_000;

describe('spot reclaims in the replay', () => {
  it('bills the warning, restarts elsewhere for five billed minutes, falls back and returns', () => {
    // One batch GPU meant to run 4 hours from time zero. Fixture ticks are one hour:
    // us-east-1a open in ticks 0 and 2 ($1.00, $1.20), us-east-2a open in ticks 0 and 1 ($1.50, $1.40).
    //  0:00 launch on us-east-1a at $1.00 (cheapest open).
    //  1:00 us-east-1a closes: warning. 1:02 taken; resume on us-east-2a at $1.40. Ends 4:05.
    //  2:00 us-east-2a closes: warning. 2:02 taken; resume on us-east-1a at $1.20. Ends 4:10.
    //  3:00 us-east-1a closes; no zone open: fall back to on-demand from 3:02. Ends 4:15.
    //  4:00 tick 4 = tick 0: us-east-1a open at $1.00; the lease is 4 h old, so the saving
    //       ($2.06/h × 4 h) beats a restart (5 min × $1.00/h): back to spot. Ends 4:20.
    const outcome = simulate(traceOf([lease('c', 'batch', 1, 0, 4 * HOUR)]));
    expect(outcome.interruptions).toBe(3);
    expect(outcome.spotFallbacks).toBe(1);
    expect(outcome.returnsToSpot).toBe(1);
    expect(outcome.costMicroUsd).toEqual({
      // 62 min × $1.00 = $1.033333 + 60 min × $1.40 + 60 min × $1.20 + 20 min × $1.00 = $0.333333
      spot: 1_033_333 + 1_400_000 + 1_200_000 + 333_333,
      // 3:02 to 4:00 = 58 min × $3.06
      'on-demand': 2_958_000,
      reserved: 0,
    });
  });

  it('lets a lease that finishes within the warning just end', () => {
    // Ends at 1:01, inside the warning that starts at 1:00: billed 61 min at $1.00, no restart.
    const outcome = simulate(traceOf([lease('c', 'batch', 1, 0, HOUR + 60_000)]));
    expect(outcome.interruptions).toBe(0);
    expect(outcome.costMicroUsd.spot).toBe(1_016_667);
  });

  it('bills the one-minute minimum', () => {
    const outcome = simulate(traceOf([lease('c', 'batch', 1, 0, 10_000)]));
    expect(outcome.costMicroUsd.spot).toBe(16_667);
  });

  it('never puts inference on spot', () => {
    const outcome = simulate(traceOf([lease('i', 'inference', 1, 0, 4 * HOUR)]));
    expect(outcome.inferenceOnSpot).toBe(0);
    expect(outcome.costMicroUsd).toEqual({ spot: 0, 'on-demand': 12_240_000, reserved: 0 });
  });
});

describe('reservations in the replay', () => {
  it('commits from past demand only and moves running leases onto the commitment', () => {
    // Term 0 has no history: nothing reserved, the 2 GPUs run on-demand for 30 days
    // (2 × 720 h × $3.06 = $4,406.40). Term 1 sees them busy all of the last 3 days: 2 GPUs,
    // and the running lease moves onto them with no restart.
    const outcome = simulate(traceOf([lease('a', 'inference', 2, 0, 60 * DAY)]));
    expect(outcome.reservedTerms.map((term) => term.gpus)).toEqual([0, 2]);
    expect(outcome.reservedTerms[1]?.reason).toBe(
      '2 GPUs at once were in use 100% of the last 3 days, above the 63% at which a reserved GPU pays for itself; never more than 2 GPUs at once',
    );
    expect(outcome.costMicroUsd).toEqual({ 'on-demand': 4_406_400_000, reserved: 2 * TERM_GPU, spot: 0 });
    expect(outcome.reservedBusyGpuHours).toBe(2 * 720);
  });

  it('takes a smaller term off the youngest leases, which go on on-demand', () => {
    // a: 2 GPUs for 90 days; b: 2 GPUs from day 27 to 58; c: 2 GPUs from day 59.5 to 61.
    // Term 1 (day 30): 4 GPUs busy all of days 27-30 → 4; a and b move onto them.
    // c starts on the 2 GPUs b left. Term 2 (day 60): over days 57-60 GPUs 3-4 are busy
    // 1.5 of 3 days (b one, c half) = 50% → 2; c, the youngest, goes on-demand until day 61.
    const outcome = simulate(
      traceOf([
        lease('a', 'inference', 2, 0, 90 * DAY),
        lease('b', 'inference', 2, 27 * DAY, 58 * DAY),
        lease('c', 'inference', 2, 59.5 * DAY, 61 * DAY),
      ]),
    );
    expect(outcome.reservedTerms.map((term) => term.gpus)).toEqual([0, 4, 2]);
    expect(outcome.costMicroUsd).toEqual({
      // a for 30 days ($4,406.40), b for 3 days (2 × 72 h × $3.06 = $440.64), c for 1 day ($146.88)
      'on-demand': 4_406_400_000 + 440_640_000 + 146_880_000,
      reserved: 6 * TERM_GPU,
      spot: 0,
    });
    // a 60 days, b 28 days, c half a day, 2 GPUs each
    expect(outcome.reservedBusyGpuHours).toBe(2 * 24 * (60 + 28 + 0.5));
  });
});
