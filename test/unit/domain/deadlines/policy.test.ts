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

  it('waits for spot while ahead of the uniform-progress line, and catches up on-demand when behind it', () => {
    const gone = [pool('us-east-1a', 'us-east-1', 1_000_000, { available: false })];
    expect(deadlinePolicy(input({ nowMs: 2 * HOUR, doneMs: 1.5 * HOUR, spot: gone })).action).toEqual({
      kind: 'wait',
    });
    expect(deadlinePolicy(input({ nowMs: 2 * HOUR, doneMs: 0.5 * HOUR, spot: gone })).action.kind).toBe(
      'on-demand',
    );
  });

  it('returns from on-demand to spot only once two restarts ahead of the line', () => {
    const onDemand = { kind: 'on-demand', region: 'us-east-1' } as const;
    // The line is at half the elapsed time: 1 h of work at 2 h, 1 h 5 min at 2 h 10 min.
    expect(
      deadlinePolicy(input({ nowMs: 2 * HOUR, doneMs: 1.05 * HOUR, placement: onDemand })).action,
    ).toEqual(onDemand);
    expect(
      deadlinePolicy(input({ nowMs: 2 * HOUR, doneMs: 1.1 * HOUR, placement: onDemand })).action,
    ).toEqual({
      kind: 'spot',
      zone: 'us-east-1a',
      region: 'us-east-1',
    });
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
