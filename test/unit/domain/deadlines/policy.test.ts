import { describe, expect, it } from 'vitest';
import { deadlinePolicy, MOVE_SAVING } from '../../../../shared/domain/deadlines/policy';
import type { DeadlinePolicyInput, SpotPoolSignal } from '../../../../shared/domain/deadlines/policy-input';
import { simulateJob } from '../../../../shared/planning/deadlines/simulate';
import { marketOf, TICK_MS } from './synthetic-market';

const HOUR = 3_600_000;
const pool = (
  zone: string,
  region: string,
  price: number,
  extra: Partial<SpotPoolSignal> = {},
): SpotPoolSignal => ({
  zone,
  region,
  priceMicroUsdPerHour: price,
  available: true,
  recentInterruptions: 0,
  recentAvailableMs: 12 * HOUR,
  recentWindowMs: 12 * HOUR,
  ...extra,
});

const input = (overrides: Partial<DeadlinePolicyInput>): DeadlinePolicyInput => ({
  job: {
    submittedAtMs: 0,
    deadlineMs: 20 * HOUR,
    workMs: 10 * HOUR,
    restartMs: 5 * 60_000,
    checkpointGb: 100,
    onDemandCostMicroUsd: 31_000_000,
  },
  nowMs: 0,
  tickMs: 195_000,
  doneMs: 0,
  placement: { kind: 'waiting' },
  checkpointRegion: 'us-east-1',
  spot: [pool('us-east-1a', 'us-east-1', 1_000_000)],
  onDemand: [
    { region: 'us-east-1', priceMicroUsdPerHour: 3_060_000 },
    { region: 'us-west-2', priceMicroUsdPerHour: 3_060_000 },
  ],
  transferCosts: { transferMicroUsdPerGb: {}, defaultTransferMicroUsdPerGb: 20_000 },
  spentMicroUsd: 0,
  ...overrides,
});

describe("gpurent's deadline policy", () => {
  it('moves to on-demand, saying why, once the slack no longer covers a restart and a tick', () => {
    const tight = input({
      nowMs: 10.4 * HOUR,
      doneMs: 0.5 * HOUR,
      spot: [pool('us-east-1a', 'us-east-1', 1_000_000, { available: false })],
    });
    const decision = deadlinePolicy(tight);
    expect(decision.action).toEqual({ kind: 'on-demand', region: 'us-east-1' });
    expect(decision.slackMs).toBeLessThan(0);
    expect(decision.reason).toContain('no slack for another restart');
  });

  // The fixture: 10 h of work by 20 h, 5-minute restart = 2 ticks of 195 s = 390 s; slack = 20 h - now - left - 585 s.
  it('waits out an outage while the slack exceeds the restarts the rest will need, and runs on-demand below that', () => {
    // Capacity all through the 12-hour window but for 3 interruptions: runs of 4 h, outages too short to count,
    // so only the reserve decides. 9 h left: 2.25 interruptions, reserve 390 s x (2.25 + 1.5) = 1,462.5 s; the job
    // (behind the uniform-progress line throughout) waits while the slack is over 1,462.5 + 390 = 1,852.5 s.
    const gone = [
      pool('us-east-1a', 'us-east-1', 1_000_000, {
        available: false,
        recentInterruptions: 3,
        recentAvailableMs: 12 * HOUR,
      }),
    ];
    // Slack 1,875 s at 37,140 s; 1,755 s at 37,260 s.
    const at = (nowS: number) => input({ nowMs: nowS * 1000, doneMs: HOUR, spot: gone });
    expect(deadlinePolicy(at(37_140))).toMatchObject({ action: { kind: 'wait' }, slackMs: 1_875_000 });
    const below = deadlinePolicy(at(37_260));
    expect(below).toMatchObject({ action: { kind: 'on-demand', region: 'us-east-1' }, slackMs: 1_755_000 });
    expect(below.reason).toContain('what the remaining interruptions will need');
  });

  it('runs on-demand early through an old outage, while the slack still lets it come back to spot', () => {
    // 4.5 h done at 10 h, behind the line (5 h): 5.5 h left, slack 4.5 h - 585 s = 15,615 s; reserve 390 s x
    // (1.375 + sqrt 1.375) + 390 s = 1,383 s. Outages of 2 h on the record.
    const down = (hours: number) =>
      input({
        nowMs: 10 * HOUR,
        doneMs: 4.5 * HOUR,
        spot: [
          pool('us-east-1a', 'us-east-1', 1_000_000, {
            available: false,
            recentInterruptions: 3,
            recentAvailableMs: 6 * HOUR,
            unavailableSinceMs: (10 - hours) * HOUR,
          }),
        ],
      });
    // An hour old, the outage is expected to last the mean 2 h: 15,615 - 7,200 s still covers the reserve.
    expect(deadlinePolicy(down(1)).action).toEqual({ kind: 'wait' });
    // 4.5 h old, it is expected to last 4.5 h more, past the slack: on-demand now, with 4.3 h of slack kept.
    const early = deadlinePolicy(down(4.5));
    expect(early).toMatchObject({ action: { kind: 'on-demand', region: 'us-east-1' }, slackMs: 15_615_000 });
    expect(early.reason).toContain('the outage expected now');
  });

  it('passes over a dear pool for cheaper ones that can do the rest in time, and takes it when they cannot', () => {
    // us-east-1b at 0.5 $/h had capacity 9 h of 12 with one interruption: availability 0.75, outages of 3 h.
    // 10 h left need 3 h of outage, 10 / 0.75 = 13.3 h and 680 s of restarts: 16.5 h.
    const pools = [
      pool('us-east-1a', 'us-east-1', 1_500_000),
      pool('us-east-1b', 'us-east-1', 500_000, {
        available: false,
        recentInterruptions: 1,
        recentAvailableMs: 9 * HOUR,
      }),
    ];
    // By 20 h there are 19.8 h for it: wait for the cheap pool.
    expect(deadlinePolicy(input({ spot: pools })).action).toEqual({ kind: 'wait' });
    // By 14 h there are 13.8 h: start in the dear one.
    const tight = { ...input({}).job, deadlineMs: 14 * HOUR };
    expect(deadlinePolicy(input({ job: tight, spot: pools })).action).toEqual({
      kind: 'spot',
      zone: 'us-east-1a',
      region: 'us-east-1',
    });
    // A job already running in the dear pool stays there.
    const running = { kind: 'spot', zone: 'us-east-1a', region: 'us-east-1' } as const;
    expect(deadlinePolicy(input({ placement: running, spot: pools })).action).toEqual(running);
  });

  it('on the uniform-progress line it waits for spot as the paper does, though the slack is under the reserve', () => {
    // 10 h of work by 11 h, 30-minute restarts (10 ticks, 1,950 s): slack at submission 3,600 - 1,950 - 195 = 1,455 s,
    // under the reserve of 10 h / 4-hour cycles = 2.5 interruptions: 1,950 s x (2.5 + 1.58) + a restart.
    const job = {
      ...input({}).job,
      deadlineMs: 11 * HOUR,
      restartMs: 30 * 60_000,
      onDemandCostMicroUsd: 32_300_000,
    };
    const gone = [
      pool('us-east-1a', 'us-east-1', 1_000_000, {
        available: false,
        recentInterruptions: 3,
        recentAvailableMs: 6 * HOUR,
      }),
    ];
    // At submission nothing is done and nothing is due: on the line, it waits.
    expect(deadlinePolicy(input({ job, spot: gone })).action).toEqual({ kind: 'wait' });
    // A tick later it is behind the line, and runs on-demand.
    expect(deadlinePolicy(input({ job, nowMs: 195_000, spot: gone })).action).toEqual({
      kind: 'on-demand',
      region: 'us-east-1',
    });
  });

  it('leaves on-demand for spot only where the expected progress pays for the restarts onto spot and back', () => {
    const onDemand = { kind: 'on-demand', region: 'us-east-1' } as const;
    // 5 h left at 5 h. Runs of 390 s (10 interruptions in 3,900 s): progress 390 s x e^-1 = 143 s saves
    // 2.06 $/h x 143 s, far less than the restarts, 1 $/h x 390 s + 3.06 $/h x 390 s.
    const flicker = pool('us-east-1a', 'us-east-1', 1_000_000, {
      recentInterruptions: 10,
      recentAvailableMs: 3_900_000,
    });
    expect(
      deadlinePolicy(input({ nowMs: 5 * HOUR, doneMs: 5 * HOUR, placement: onDemand, spot: [flicker] }))
        .action,
    ).toEqual(onDemand);
    // Runs of 6 h: progress 6 h x e^(-390 s / 6 h) x (1 - e^(-5/6)) = 3.33 h saves 6.86 $, over the restarts' 0.30 $.
    const steady = pool('us-east-1a', 'us-east-1', 1_000_000, {
      recentInterruptions: 1,
      recentAvailableMs: 6 * HOUR,
    });
    const back = deadlinePolicy(
      input({ nowMs: 5 * HOUR, doneMs: 5 * HOUR, placement: onDemand, spot: [steady] }),
    );
    expect(back.action).toEqual({ kind: 'spot', zone: 'us-east-1a', region: 'us-east-1' });
    expect(back.reason).toContain('back to spot');
  });

  it('stays on on-demand rather than spend its last affordable try at spot on a pool that would likely cut it off', () => {
    const onDemand = { kind: 'on-demand', region: 'us-east-1' } as const;
    // Runs of 30 min: a return saves 2.06 $/h x 0.40 h = 0.83 $ against 0.44 $ of restarts, and pays.
    const choppy = pool('us-east-1a', 'us-east-1', 1_000_000, {
      recentInterruptions: 12,
      recentAvailableMs: 6 * HOUR,
    });
    const at = (spentMicroUsd: number) =>
      input({ nowMs: 5 * HOUR, doneMs: 5 * HOUR, placement: onDemand, spot: [choppy], spentMicroUsd });
    expect(deadlinePolicy(at(17_500_000)).action).toEqual({
      kind: 'spot',
      zone: 'us-east-1a',
      region: 'us-east-1',
    });
    // Ceiling 31 + 0.99 (two restarts and ticks) + 2 (a move) = 33.99 $; on-demand from here 15.63 $,
    // a start 0.16 $: at 18.1 $ spent one start fits and a second does not. Cut off with 1 - e^(-869 s / 30 min) = 0.38, it would forgo
    // 0.5 x 5 h at 2.06 $/h = 5.15 $: 1.97 $ more, and on-demand stays.
    const stays = deadlinePolicy(at(18_100_000));
    expect(stays.action).toEqual(onDemand);
    expect(stays.reason).toContain('spot in us-east-1a would be the last try the budget or the slack allows');
  });

  it('starts no spot run whose restart the slack cannot cover: the guard would pull it before it made progress', () => {
    // 9 h left at 10 h 50 min: slack 600 s - 585 s = 15 s, under the 390 s restart.
    const late = input({ nowMs: 10 * HOUR + 50 * 60_000, doneMs: HOUR });
    expect(deadlinePolicy(late)).toMatchObject({ action: { kind: 'on-demand' }, slackMs: 15_000 });
    // With the restart covered (slack 615 s) the same pool is taken.
    expect(deadlinePolicy({ ...late, nowMs: late.nowMs - 600_000 }).action.kind).toBe('spot');
  });

  it('restarts in another region only where the saving pays for moving the checkpoint, and never moves a running job', () => {
    // Half the work done: the saving banked lets the guard risk a move.
    const halfway = { nowMs: 5 * HOUR, doneMs: 5 * HOUR, spentMicroUsd: 5_000_000 };
    const running = { kind: 'spot', zone: 'us-east-1a', region: 'us-east-1' } as const;
    const slightlyCheaper = [
      pool('us-east-1a', 'us-east-1', 1_000_000),
      pool('us-west-2a', 'us-west-2', 950_000),
    ];
    const muchCheaper = [
      pool('us-east-1a', 'us-east-1', 1_000_000),
      pool('us-west-2a', 'us-west-2', 400_000),
    ];
    expect(deadlinePolicy(input({ ...halfway, spot: slightlyCheaper })).action).toEqual(running);
    expect(deadlinePolicy(input({ ...halfway, spot: muchCheaper })).action).toEqual({
      kind: 'spot',
      zone: 'us-west-2a',
      region: 'us-west-2',
    });
    expect(deadlinePolicy(input({ ...halfway, placement: running, spot: muchCheaper })).action).toEqual(
      running,
    );
  });

  it('charges a move both ways where the budget could not bring the checkpoint back after a failed start', () => {
    const spot = [pool('us-east-1a', 'us-east-1', 1_000_000), pool('us-west-2a', 'us-west-2', 700_000)];
    const west = { kind: 'spot', zone: 'us-west-2a', region: 'us-west-2' };
    // All on-demand 35 $, ceiling 37.99 $: the move (2 $), two starts there (0.23 $), the move back (2 $) and
    // on-demand home (30.93 $) come to 35.16 $ and fit. The west costs (0.7 $/h x 10.11 h + 2 $) / 10 h =
    // 0.908 $/h of progress against 1.011 $/h at home.
    const roomy = { ...input({}).job, onDemandCostMicroUsd: 35_000_000 };
    expect(deadlinePolicy(input({ spot, job: roomy })).action).toEqual(west);
    // With all on-demand at 31 $ (ceiling 33.99 $) a failed start there would strand the job: the west
    // also pays the way back, (7.08 + 4) / 10 = 1.108 $/h, and the job starts at home.
    expect(deadlinePolicy(input({ spot })).action).toEqual({
      ...west,
      zone: 'us-east-1a',
      region: 'us-east-1',
    });
  });

  it('moves a running job only to a pool whose progress, restart and move paid, costs under 1 - MOVE_SAVING of staying', () => {
    const halfway = { nowMs: 5 * HOUR, doneMs: 5 * HOUR, spentMicroUsd: 5_000_000 };
    const running = { kind: 'spot', zone: 'us-east-1a', region: 'us-east-1' } as const;
    // 5 h left and a 5-minute restart: a pool costs about 1.02 x its price per unit of progress.
    const priceAt = (share: number) => Math.floor(((1 - MOVE_SAVING) / 1.02) * share * 1_000_000);
    const nextDoor = (price: number) => [
      pool('us-east-1a', 'us-east-1', 1_000_000),
      pool('us-east-1b', 'us-east-1', price),
    ];
    const move = deadlinePolicy(input({ ...halfway, placement: running, spot: nextDoor(priceAt(0.98)) }));
    expect(move.action).toEqual({ kind: 'spot', zone: 'us-east-1b', region: 'us-east-1' });
    expect(move.reason).toContain('of staying in us-east-1a');
    expect(
      deadlinePolicy(input({ ...halfway, placement: running, spot: nextDoor(priceAt(1.02)) })).action,
    ).toEqual(running);
  });

  it("starts where the pool's current spell promises the cheapest progress: an old spell over a cheaper pool just back", () => {
    // 30-minute restart on 30-minute ticks; both pools ran 1 h between interruptions over the window.
    const terms = { job: { ...input({}).job, restartMs: 30 * 60_000 }, tickMs: 30 * 60_000 };
    const record = { recentInterruptions: 2, recentAvailableMs: 2 * HOUR };
    const oldSpell = pool('us-east-1a', 'us-east-1', 1_000_000, {
      ...record,
      lastCapacityFailureAtMs: -10 * HOUR,
    });
    const justBack = pool('us-east-1b', 'us-east-1', 800_000, {
      ...record,
      lastCapacityFailureAtMs: -HOUR / 2,
    });
    // a: a 10-hour run, 1 x 10 / 9.5 = 1.05 $ per hour of progress; b: its 1-hour mean, 0.8 x 1 / 0.5 = 1.6 $.
    expect(deadlinePolicy(input({ ...terms, spot: [justBack, oldSpell] })).action).toEqual({
      kind: 'spot',
      zone: 'us-east-1a',
      region: 'us-east-1',
    });
    // Both spells just begun: a's 1-hour mean costs 1 x 1 / 0.5 = 2 $, b is the cheaper.
    const aJustBack = { ...oldSpell, lastCapacityFailureAtMs: -HOUR / 2 };
    expect(deadlinePolicy(input({ ...terms, spot: [justBack, aJustBack] })).action).toMatchObject({
      zone: 'us-east-1b',
    });
  });

  it('starts spot only where the budget affords its whole restart, not one tick of it', () => {
    // 30-minute restart and ticks; 5 h done at 5 h. Ceiling: 31 $ + 6.12 $ (two restarts and ticks on-demand)
    // + 2 $ (the farthest move) = 39.12 $; finishing on-demand costs 3.06 x 5.5 h = 16.83 $.
    const terms = {
      job: { ...input({}).job, restartMs: 30 * 60_000 },
      tickMs: 30 * 60_000,
      nowMs: 5 * HOUR,
      doneMs: 5 * HOUR,
    };
    // 21.56 $ spent leaves 0.73 $: a tick of spot (0.5 $) fits, the restart and a tick (1 $) do not. No spot
    // start can fit again, so it runs on-demand now.
    expect(deadlinePolicy(input({ ...terms, spentMicroUsd: 21_560_000 })).action).toEqual({
      kind: 'on-demand',
      region: 'us-east-1',
    });
    // 21.06 $ spent leaves 1.23 $: the start is affordable.
    expect(deadlinePolicy(input({ ...terms, spentMicroUsd: 21_060_000 })).action).toMatchObject({
      kind: 'spot',
    });
  });

  it('runs on-demand at once, not idle until the deadline, once failed starts have left no spot start within the budget', () => {
    // 1 h in, nothing done, spot in an outage. Ceiling: 31 $ + 0.99 $ (two 390 s restarts and 195 s ticks on-demand)
    // + 2 $ (the farthest move) = 33.99 $; finishing on-demand costs 3.06 $ x (10 h + 390 s) = 30.93 $; a spot start
    // (restart and a tick at 1 $/h) 0.16 $. Over 2.90 $ spent on starts that made no progress, none fits again:
    // waiting would bill nothing and change nothing but the finish, 8.8 h of slack later.
    const outage = { nowMs: HOUR, spot: [pool('us-east-1a', 'us-east-1', 1_000_000, { available: false })] };
    const shutOut = deadlinePolicy(input({ ...outage, spentMicroUsd: 3_000_000 }));
    expect(shutOut.action).toEqual({ kind: 'on-demand', region: 'us-east-1' });
    expect(shutOut.reason).toContain('no spot start fits the budget any more');
    expect(deadlinePolicy(input({ ...outage, spentMicroUsd: 2_800_000 })).action).toEqual({ kind: 'wait' });
    // Already on-demand with spot open again, the reason names the budget, not a closed pool.
    const onDemand = { ...outage, placement: { kind: 'on-demand', region: 'us-east-1' } as const };
    const open = [pool('us-east-1a', 'us-east-1', 1_000_000)];
    const stays = deadlinePolicy(input({ ...onDemand, spot: open, spentMicroUsd: 3_000_000 }));
    expect(stays).toMatchObject({ action: { kind: 'on-demand', region: 'us-east-1' } });
    expect(stays.reason).toContain('no spot start fits the budget any more: on-demand to the end');
    // An empty pool listing shuts nothing out: the job waits as before.
    expect(deadlinePolicy(input({ ...outage, spot: [], spentMicroUsd: 3_000_000 })).action).toEqual({
      kind: 'wait',
    });
  });

  it('prefers a steady pool to a cheaper one that keeps being interrupted', () => {
    const spot = [
      pool('us-east-1a', 'us-east-1', 1_000_000),
      pool('us-east-1b', 'us-east-1', 800_000, { recentInterruptions: 24, recentAvailableMs: 6 * HOUR }),
    ];
    expect(deadlinePolicy(input({ spot, job: { ...input({}).job, restartMs: 30 * 60_000 } })).action).toEqual(
      {
        kind: 'spot',
        zone: 'us-east-1a',
        region: 'us-east-1',
      },
    );
  });

  it('with slack short of the restarts still to come, charges a start its restart in slack and takes the steadier pool', () => {
    const spot = [
      pool('us-east-1a', 'us-east-1', 1_000_000),
      // Runs of 1 h, capacity half the time, and 20 % cheaper.
      pool('us-east-1b', 'us-east-1', 800_000, { recentInterruptions: 6, recentAvailableMs: 6 * HOUR }),
    ];
    const b = { kind: 'spot', zone: 'us-east-1b', region: 'us-east-1' };
    // Slack 9.8 h: progress costs 0.8 $/h x 1 h / (1 h - 390 s) = 0.897 $/h in b against 1.012 $/h in a.
    expect(deadlinePolicy(input({ spot })).action).toEqual(b);
    // 9 h left with 900 s of slack, short of the 1,020 s the restarts want (390 s x (0.75 + sqrt 0.75) + 390 s):
    // a restart's 390 s are charged at 2.26 $/h in b and 2.06 $/h in a, so b costs 1.172 $/h and a 1.037 $/h.
    const short = input({ spot, nowMs: 11 * HOUR - 1_485_000, doneMs: HOUR });
    expect(deadlinePolicy(short).slackMs).toBe(900_000);
    expect(deadlinePolicy(short).action).toEqual({ ...b, zone: 'us-east-1a' });
  });

  it('with a tight deadline, leaves a pool that loses capacity for on-demand in time; with slack, rides out the outage on spot', () => {
    // 20 ticks of work, a 2-tick restart; spot goes away at tick 5 for 4 ticks.
    const market = marketOf([
      {
        zone: 'a',
        region: 'r1',
        capacity: `${'.'.repeat(5)}${'x'.repeat(4)}${'.'.repeat(81)}`,
        prices: 900_000,
      },
    ]);
    const job = (deadlineTicks: number) => ({
      startTick: 0,
      workMs: 20 * TICK_MS,
      deadlineAfterMs: deadlineTicks * TICK_MS,
      restartMs: 90_000,
      checkpointGb: 0,
      homeRegion: 'r1',
    });
    const tight = simulateJob(market, job(26), deadlinePolicy);
    expect(tight.finished).toBe(true);
    expect(tight.finishedAfterTicks).toBeLessThanOrEqual(26);
    expect(tight.onDemandTicks).toBeGreaterThan(0);
    const loose = simulateJob(market, job(90), deadlinePolicy);
    expect(loose).toMatchObject({ finished: true, interruptions: 1, onDemandTicks: 0 });
  });
});
