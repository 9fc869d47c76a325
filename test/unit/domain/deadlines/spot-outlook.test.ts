import { describe, expect, it } from 'vitest';
import type { DeadlinePolicyInput, SpotPoolSignal } from '../../../../shared/domain/deadlines/policy-input';
import {
  canWaitForSpot,
  expectedRunMs,
  expectedSpotProgressMs,
  poolOutlook,
  restartsReserveMs,
  spotOutlook,
  spotRunPays,
} from '../../../../shared/domain/deadlines/spot-outlook';

const HOUR = 3_600_000;
const pool = (zone: string, extra: Partial<SpotPoolSignal> = {}): SpotPoolSignal => ({
  zone,
  region: 'us-east-1',
  priceMicroUsdPerHour: 1_000_000,
  available: false,
  recentInterruptions: 3,
  recentAvailableMs: 6 * HOUR,
  recentWindowMs: 12 * HOUR,
  ...extra,
});

// 10 h of work by 20 h, a 30-minute restart on 30-minute ticks (1 tick), 4 h done at 4 h: 6 h left, slack 9 h.
const input = (overrides: Partial<DeadlinePolicyInput> = {}): DeadlinePolicyInput => ({
  job: {
    submittedAtMs: 0,
    deadlineMs: 20 * HOUR,
    workMs: 10 * HOUR,
    restartMs: HOUR / 2,
    checkpointGb: 0,
    onDemandCostMicroUsd: 32_000_000,
  },
  nowMs: 4 * HOUR,
  tickMs: HOUR / 2,
  doneMs: 4 * HOUR,
  placement: { kind: 'waiting' },
  checkpointRegion: 'us-east-1',
  spot: [pool('a')],
  onDemand: [{ region: 'us-east-1', priceMicroUsdPerHour: 3_000_000 }],
  transferCosts: { transferMicroUsdPerGb: {}, defaultTransferMicroUsdPerGb: 0 },
  spentMicroUsd: 0,
  ...overrides,
});

describe('the spot outlook the deadline policy reads', () => {
  it("reads a pool's record as runs and outages: 6 h of 12 with capacity and 3 interruptions are 2-hour runs and 2-hour outages", () => {
    expect(poolOutlook(pool('a'))).toEqual({
      availability: 0.5,
      meanRunMs: 2 * HOUR,
      meanOutageMs: 2 * HOUR,
    });
    // 9 h of 12 in one run (a window counts at least one interruption): outages of 3 h.
    expect(poolOutlook(pool('b', { recentInterruptions: 0, recentAvailableMs: 9 * HOUR }))).toEqual({
      availability: 0.75,
      meanRunMs: 9 * HOUR,
      meanOutageMs: 3 * HOUR,
    });
    expect(poolOutlook(pool('c', { recentInterruptions: 0, recentAvailableMs: 0 })).meanOutageMs).toBe(
      Number.POSITIVE_INFINITY,
    );
  });

  it('takes the pool with the most progress per hour after restarts, not the pools together', () => {
    // a: 0.5 x (2 - 0.5) / 2 = 0.375; b: 0.25 x (3 - 0.5) / 3 = 0.208.
    const b = pool('b', { recentInterruptions: 1, recentAvailableMs: 3 * HOUR });
    expect(spotOutlook(input({ spot: [b, pool('a')] }))).toEqual(poolOutlook(pool('a')));
  });

  it('keeps a restart of slack for each interruption the rest will meet, plus one standard deviation', () => {
    // 6 h left over 4-hour cycles: 1.5 interruptions; 0.5 h x (1.5 + sqrt 1.5) = 1.3624 h.
    const outlook = poolOutlook(pool('a'));
    expect(restartsReserveMs(input(), outlook) / HOUR).toBeCloseTo(0.5 * (1.5 + Math.sqrt(1.5)), 9);
    // Slack 9 h (20 - 4 - 6 left - a restart and a tick) against 1.36 h + the start's 0.5 h: wait.
    expect(canWaitForSpot(input(), outlook)).toBe(true);
    // 4 h left: 1 interruption, reserve 0.5 x (1 + 1) = 1 h, waits while the slack is over 1.5 h:
    // 2 h at 13 h, 1.5 h at 13 h 30 min.
    expect(canWaitForSpot(input({ nowMs: 13 * HOUR, doneMs: 6 * HOUR }), outlook)).toBe(true);
    expect(canWaitForSpot(input({ nowMs: 13.5 * HOUR, doneMs: 6 * HOUR }), outlook)).toBe(false);
  });

  it("expects a start's run to last as long again as the pool's current spell, never less than its mean run", () => {
    // Mean run 2 h (6 h over 3 interruptions); now 4 h.
    const upSince = (hours: number) =>
      pool('a', { available: true, lastCapacityFailureAtMs: (4 - hours) * HOUR });
    expect(expectedRunMs(input(), upSince(5))).toBe(5 * HOUR);
    expect(expectedRunMs(input(), upSince(1))).toBe(2 * HOUR);
    // No spell under way (no capacity, or no failure on record): the mean run.
    expect(expectedRunMs(input(), { ...upSince(5), available: false })).toBe(2 * HOUR);
    expect(expectedRunMs(input(), pool('b', { available: true }))).toBe(2 * HOUR);
    // A spell of 5 h in the start's progress: 5 x e^-0.1 x (1 - e^-1.2) = 3.1855 h, not 1.4841 h.
    expect(expectedSpotProgressMs(input(), upSince(5)) / HOUR).toBeCloseTo(
      5 * Math.exp(-0.1) * (1 - Math.exp(-1.2)),
      9,
    );
  });

  it('expects a start to make progress only once its run outlasts the restart, and weighs that against the restarts', () => {
    // Runs of 2 h, restart 0.5 h, 6 h left: 2 x e^-0.25 x (1 - e^-3) = 1.4841 h.
    const a = pool('a', { available: true });
    const expected = 2 * Math.exp(-0.25) * (1 - Math.exp(-3));
    expect(expectedSpotProgressMs(input(), a) / HOUR).toBeCloseTo(expected, 9);
    // Saves 2 $/h x 1.4841 h = 2.97 $; the restarts cost 1 x 0.5 + (1 - e^-3.25) x 3 x 0.5 = 1.94 $: pays.
    expect(spotRunPays(input(), a, 3_000_000, false)).toBe(true);
    // At 2.5 $/h spot saves 0.5 x 1.4841 = 0.74 $ against 1.25 + 1.44 = 2.69 $: it does not.
    expect(spotRunPays(input(), { ...a, priceMicroUsdPerHour: 2_500_000 }, 3_000_000, false)).toBe(false);
  });

  it('with scarce slack also charges the restarts their time, at what on-demand would forgo of spot', () => {
    const a = pool('a', { available: true });
    // Saves 2.97 $ as above; restarts 1.94 $, and their slack 2 $/h x 0.5 h x (1 + 0.9612) = 1.96 $: 3.90 $.
    expect(spotRunPays(input(), a, 3_000_000, true)).toBe(false);
    // Runs of 6 h: progress 6 x e^(-1/12) x (1 - e^-1) = 3.49 h saves 6.98 $; restarts
    // 0.5 + (1 - e^(-6.5/6)) x 1.5 = 1.49 $ and their slack 2 x 0.5 x (1 + 0.6615) = 1.66 $: it pays.
    const steady = pool('b', { available: true, recentInterruptions: 1, recentAvailableMs: 6 * HOUR });
    expect(spotRunPays(input(), steady, 3_000_000, true)).toBe(true);
  });
});
