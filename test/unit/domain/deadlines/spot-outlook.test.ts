import { describe, expect, it } from 'vitest';
import {
  affordsSpotAfterOnDemand,
  affordsSpotStartAfterFailedOne,
  strandsCheckpoint,
} from '../../../../shared/domain/deadlines/guard';
import type { DeadlinePolicyInput, SpotPoolSignal } from '../../../../shared/domain/deadlines/policy-input';
import {
  canWaitForSpot,
  combinedAvailability,
  expectedOutageMs,
  expectedRunMs,
  expectedSpotProgressMs,
  isLastSpotTry,
  lastTryRiskMicroUsd,
  poolOutlook,
  poolsCanFinish,
  restartsReserveMs,
  slackReserveMs,
  slackShortOfRestarts,
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
    // Slack 9 h (20 - 4 - 6 left - a restart and a tick) against 1.36 h + the start's 0.5 h, and 7 h once the
    // mean outage of 2 h is over: wait.
    expect(canWaitForSpot(input(), outlook)).toBe(true);
    // 4 h left: 1 interruption, reserve 0.5 x (1 + 1) = 1 h, plus the start's 0.5 h. Outages of 30 min (runs of
    // 3.5 h): the job waits while the slack less 0.5 h is over 1.5 h: 2.5 h at 12 h 30 min, 2 h at 13 h.
    const brief = pool('a', { recentAvailableMs: 10.5 * HOUR });
    const at = (hours: number) => input({ nowMs: hours * HOUR, doneMs: 6 * HOUR, spot: [brief] });
    expect(canWaitForSpot(at(12.5), poolOutlook(brief))).toBe(true);
    expect(canWaitForSpot(at(13), poolOutlook(brief))).toBe(false);
  });

  it('waits while on-demand now would leave no way back to spot, as long as the slack covers a spot start', () => {
    // Having spent 23 $, on-demand now (a restart at 3 $/h, then a spot start of 1 h at 1 $/h and 4.5 h of
    // on-demand: 39 $) would be over the ceiling of 38 $ (32 $ + two restarts and ticks at 3 $/h): on-demand now is
    // on-demand to the end, which waiting costs no more than. Slack 1.5 h at 13 h 30 min is under the reserve.
    const outlook = poolOutlook(pool('a'));
    const closed = { doneMs: 6 * HOUR, spentMicroUsd: 23_000_000 };
    expect(affordsSpotAfterOnDemand(input({ nowMs: 13.5 * HOUR, ...closed }), 1_000_000)).toBe(false);
    expect(canWaitForSpot(input({ nowMs: 13.5 * HOUR, ...closed }), outlook)).toBe(true);
    // Nothing spent, the way back is open, and the slack under the reserve sends the job to on-demand.
    expect(affordsSpotAfterOnDemand(input({ nowMs: 13.5 * HOUR, doneMs: 6 * HOUR }), 1_000_000)).toBe(true);
    expect(canWaitForSpot(input({ nowMs: 13.5 * HOUR, doneMs: 6 * HOUR }), outlook)).toBe(false);
    // Slack 0.4 h at 14 h 36 min, under a spot start's 0.5 h: no spot can be used, so no waiting for it.
    expect(canWaitForSpot(input({ nowMs: 14.6 * HOUR, ...closed }), outlook)).toBe(false);
  });

  it('expects an outage to last as long again as it has, never less than the mean, the soonest pool first', () => {
    // Outages of 2 h (pool a); now 4 h.
    const downSince = (hours: number, extra: Partial<SpotPoolSignal> = {}) =>
      pool('a', { unavailableSinceMs: (4 - hours) * HOUR, ...extra });
    const outage = (...pools: SpotPoolSignal[]) => expectedOutageMs(input(), pools);
    expect(outage(downSince(3))).toBe(3 * HOUR);
    expect(outage(downSince(1))).toBe(2 * HOUR);
    expect(outage(pool('a'))).toBe(2 * HOUR);
    // The soonest of two pools; a pool with capacity now ends the wait; no pool, no end.
    expect(outage(downSince(5), pool('b', { unavailableSinceMs: 0 }))).toBe(4 * HOUR);
    expect(outage(downSince(5), pool('b', { available: true }))).toBe(0);
    expect(outage()).toBe(Number.POSITIVE_INFINITY);
  });

  it('runs on-demand rather than wait out an outage that would leave the slack short of the restarts', () => {
    // 4 h left at 13 h: slack 2 h, reserve 1 h + the start's 0.5 h. Nothing spent: on-demand now (1.5 $ of
    // restart, a spot start of 1 $ and 13.5 $ to finish) keeps the way back to spot under the 35 $ ceiling.
    const outlook = poolOutlook(pool('a'));
    const at13 = (spot: SpotPoolSignal) => input({ nowMs: 13 * HOUR, doneMs: 6 * HOUR, spot: [spot] });
    // The mean outage of 2 h would leave no slack: on-demand now.
    expect(canWaitForSpot(at13(pool('a')), outlook)).toBe(false);
    // Slack 9 h at 4 h: an outage 3 h old is expected to last 3 h more, leaving 6 h: wait; one 8 h old leaves 1 h: not.
    const since = (hours: number) => input({ spot: [pool('a', { unavailableSinceMs: (4 - hours) * HOUR })] });
    expect(canWaitForSpot(since(3), outlook)).toBe(true);
    expect(canWaitForSpot(since(8), outlook)).toBe(false);
    // A pool with capacity but dearer than on-demand is no end of the outage: still not.
    const dear = pool('b', { available: true, priceMicroUsdPerHour: 3_000_000 });
    const withDear = input({ spot: [pool('a', { unavailableSinceMs: -4 * HOUR }), dear] });
    expect(canWaitForSpot(withDear, outlook)).toBe(false);
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

  it("calls the slack short once it is under the restarts' reserve and one spot start", () => {
    const outlook = poolOutlook(pool('a'));
    // 1.3624 h for the interruptions to come and 0.5 h for a start: 1.8624 h.
    expect(slackReserveMs(input(), outlook) / HOUR).toBeCloseTo(0.5 * (1.5 + Math.sqrt(1.5)) + 0.5, 9);
    // Slack 9 h at 4 h; 1.5 h at 11.5 h; 2 h at 11 h.
    expect(slackShortOfRestarts(input(), outlook)).toBe(false);
    expect(slackShortOfRestarts(input({ nowMs: 11.5 * HOUR }), outlook)).toBe(true);
    expect(slackShortOfRestarts(input({ nowMs: 11 * HOUR }), outlook)).toBe(false);
  });

  it('calls a start the last try at spot when a failure would leave the budget or the slack no second one', () => {
    const a = pool('a', { available: true });
    // Ceiling 32 + 2 x 3 x (0.5 + 0.5) = 38 $. A failed start and another bill 2 x 1 $/h x 1 h; on-demand from
    // there 3 $/h x 6.5 h = 19.5 $: at 16.5 $ spent 38 $ fits, at 17 $ it does not.
    expect(affordsSpotStartAfterFailedOne(input({ spentMicroUsd: 16_500_000 }), a)).toBe(true);
    expect(affordsSpotStartAfterFailedOne(input({ spentMicroUsd: 17_000_000 }), a)).toBe(false);
    expect(isLastSpotTry(input({ spentMicroUsd: 16_500_000 }), a)).toBe(false);
    expect(isLastSpotTry(input({ spentMicroUsd: 17_000_000 }), a)).toBe(true);
    // Slack 1.6 h at 11.4 h: a failure's 1 h leaves 0.6 h, a restart's worth; at 12 h (slack 1 h) it leaves none.
    expect(isLastSpotTry(input({ nowMs: 11.4 * HOUR }), a)).toBe(false);
    expect(isLastSpotTry(input({ nowMs: 12 * HOUR }), a)).toBe(true);
  });

  it('says a start in another region strands the job when the budget could not bring the checkpoint back', () => {
    const west = pool('w', { available: true, region: 'us-west-2' });
    const moving = (spentMicroUsd: number) =>
      input({
        spentMicroUsd,
        transferCosts: { transferMicroUsdPerGb: {}, defaultTransferMicroUsdPerGb: 100_000 },
        job: { ...input().job, checkpointGb: 10 },
      });
    // Moves of 1 $ each way, two starts of 1 $/h x 1 h, on-demand home 19.5 $: 23.5 $ on top of what is spent,
    // against a ceiling of 32 + 6 = 38 $ (on-demand is offered in one region only: no move in the allowance).
    expect(strandsCheckpoint(moving(14_500_000), west)).toBe(false);
    expect(strandsCheckpoint(moving(15_000_000), west)).toBe(true);
    // A start at home moves nothing, and strands nothing.
    expect(strandsCheckpoint(moving(30_000_000), pool('a', { available: true }))).toBe(false);
  });

  it('charges a last try what it risks: cut off before it paid for itself, the spot progress the job forgoes', () => {
    const a = pool('a', { available: true });
    expect(lastTryRiskMicroUsd(input(), a, 3_000_000)).toBe(0);
    // Paid back after the restart and tick (1 h) and 1 h x 1 / 2 of progress: 1.5 h; runs of 2 h cut it off
    // with 1 - e^-0.75. Forgone: availability 0.5 x 6 h left at 2 $/h = 6 $.
    const lastTry = input({ spentMicroUsd: 17_000_000 });
    expect(lastTryRiskMicroUsd(lastTry, a, 3_000_000)).toBeCloseTo((1 - Math.exp(-0.75)) * 6_000_000, 0);
    // The start that pays with room for another (2.97 $ against 1.94 $) does not as the last try (+ 3.17 $).
    expect(spotRunPays(input(), a, 3_000_000, false)).toBe(true);
    expect(spotRunPays(lastTry, a, 3_000_000, false)).toBe(false);
    // Runs of 6 h rarely cut it off (1 - e^-0.25 of 6 $ = 1.33 $): 6.98 $ against 1.49 + 1.33 $ still pays.
    const steady = pool('b', { available: true, recentInterruptions: 1, recentAvailableMs: 6 * HOUR });
    expect(spotRunPays(lastTry, steady, 3_000_000, false)).toBe(true);
  });

  it("counts a region's best pool, regions independent, and asks whether those pools alone finish in time", () => {
    // us-east-1: a 0.5, b 0.25; us-west-2: c 0.5 -> 1 - 0.5 x 0.5 = 0.75.
    const b = pool('b', { recentInterruptions: 1, recentAvailableMs: 3 * HOUR });
    const c = pool('c', { region: 'us-west-2' });
    expect(combinedAvailability([pool('a'), b])).toBe(0.5);
    expect(combinedAvailability([pool('a'), b, c])).toBe(0.75);
    // 6 h left, 15 h to the deadline (slack 9 h): pool a alone needs its 2 h outage, 6 / 0.5 = 12 h and 1.36 h of
    // restarts: 15.4 h, too long; with c, 2 h + 8 h + restarts fit.
    expect(poolsCanFinish(input(), [pool('a')])).toBe(false);
    expect(poolsCanFinish(input(), [pool('a'), c])).toBe(true);
  });
});
