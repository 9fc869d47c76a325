import { describe, expect, it } from 'vitest';
import {
  type MarketQuery,
  onDemandOffers,
  SIGNAL_WINDOW_MS,
  spotPoolSignals,
} from '../../../../shared/domain/deadlines/pool-signals';
import { parseProgressFile } from '../../../../shared/domain/deadlines/progress-file';
import { isFollowed, steeredLaunch } from '../../../../shared/domain/deadlines/steering';
import type { Pool } from '../../../../shared/domain/placement';

const HOUR = 3_600_000;
const NOW = Date.parse('2026-12-01T12:00:00Z');

const pool = (zone: string, mode: 'spot' | 'on-demand', price: number, extra: Partial<Pool> = {}): Pool => ({
  region: zone.slice(0, -1),
  zone,
  instanceType: 'g5.xlarge',
  mode,
  priceMicroUsdPerHour: price,
  available: true,
  ...extra,
});

const query = (history: MarketQuery['history'] = [], machines = 1): MarketQuery => ({
  instanceType: 'g5.xlarge',
  regions: ['us-east-1', 'us-west-2'],
  machines,
  history,
});

describe('spot pool signals for the deadline policy', () => {
  it("counts the lease's own interruptions in a pool over the window, and the time it ran there", () => {
    const history = [
      {
        zone: 'us-east-1a',
        startedAtMs: NOW - 5 * HOUR,
        endedAtMs: NOW - 3 * HOUR,
        interruptedAtMs: NOW - 3 * HOUR,
      },
      { zone: 'us-east-1a', startedAtMs: NOW - 2 * HOUR, endedAtMs: NOW - HOUR, interruptedAtMs: NOW - HOUR },
      // Ended before the window: forgotten.
      {
        zone: 'us-east-1a',
        startedAtMs: NOW - 30 * HOUR,
        endedAtMs: NOW - 26 * HOUR,
        interruptedAtMs: NOW - 26 * HOUR,
      },
    ];
    const [signal] = spotPoolSignals([pool('us-east-1a', 'spot', 400_000)], query(history), NOW);
    expect(signal).toMatchObject({
      zone: 'us-east-1a',
      region: 'us-east-1',
      recentInterruptions: 2,
      recentAvailableMs: 3 * HOUR,
      lastCapacityFailureAtMs: NOW - HOUR,
    });
  });

  it('takes the later of the container mark and the lease interruption as the last failure; an untouched pool promises the window', () => {
    const marked = pool('us-east-1b', 'spot', 400_000, { lastCapacityFailureAtMs: NOW - 60_000 });
    const history = [
      {
        zone: 'us-east-1b',
        startedAtMs: NOW - HOUR,
        endedAtMs: NOW - 600_000,
        interruptedAtMs: NOW - 600_000,
      },
    ];
    expect(spotPoolSignals([marked], query(history), NOW)[0]?.lastCapacityFailureAtMs).toBe(NOW - 60_000);
    const [quiet] = spotPoolSignals([pool('us-west-2a', 'spot', 400_000)], query(), NOW);
    expect(quiet).toMatchObject({ recentInterruptions: 0, recentAvailableMs: SIGNAL_WINDOW_MS });
    expect(quiet?.lastCapacityFailureAtMs).toBeUndefined();
  });

  it("dates a pool's outage from its last failure while it has no capacity, and not at all while it has", () => {
    const down = pool('us-east-1b', 'spot', 400_000, {
      available: false,
      lastCapacityFailureAtMs: NOW - 60_000,
    });
    const up = pool('us-east-1c', 'spot', 400_000, { lastCapacityFailureAtMs: NOW - 60_000 });
    const [downSignal, upSignal] = spotPoolSignals([down, up], query(), NOW);
    expect(downSignal?.unavailableSinceMs).toBe(NOW - 60_000);
    expect(upSignal?.unavailableSinceMs).toBeUndefined();
  });

  it('prices the whole lease and leaves out on-demand pools and other types', () => {
    const pools = [
      pool('us-east-1a', 'spot', 400_000),
      pool('us-east-1a', 'on-demand', 1_000_000),
      pool('us-east-1b', 'spot', 300_000, { instanceType: 'g6.xlarge' }),
    ];
    expect(spotPoolSignals(pools, query([], 2), NOW).map((s) => [s.zone, s.priceMicroUsdPerHour])).toEqual([
      ['us-east-1a', 800_000],
    ]);
  });
});

describe('on-demand offers', () => {
  it('keeps the cheapest pool of each region, for the whole lease', () => {
    const pools = [
      pool('us-east-1a', 'on-demand', 1_000_000),
      pool('us-east-1b', 'on-demand', 900_000),
      pool('us-west-2a', 'on-demand', 1_100_000),
      pool('us-west-2a', 'spot', 100_000),
    ];
    expect(onDemandOffers(pools, query([], 2))).toEqual([
      { region: 'us-east-1', priceMicroUsdPerHour: 1_800_000 },
      { region: 'us-west-2', priceMicroUsdPerHour: 2_200_000 },
    ]);
  });
});

describe('following a decision', () => {
  const decided = (action: Parameters<typeof isFollowed>[1]) => ({
    action,
    reason: 'why',
    slackMs: 0,
    atMs: NOW,
    trigger: 'schedule' as const,
    doneMs: 0,
  });

  it('launches spot pinned to the zone with on-demand behind it, on-demand pinned to the region, and nothing on wait', () => {
    expect(steeredLaunch(decided({ kind: 'spot', zone: 'us-west-2b', region: 'us-west-2' }))).toEqual({
      mode: 'spot',
      fallback: 'on-demand',
      reason: 'deadline policy: why',
      pin: { region: 'us-west-2', zone: 'us-west-2b' },
    });
    expect(steeredLaunch(decided({ kind: 'on-demand', region: 'us-east-1' }))).toMatchObject({
      mode: 'on-demand',
      fallback: null,
      pin: { region: 'us-east-1' },
    });
    expect(steeredLaunch(decided({ kind: 'wait' }))).toBeNull();
  });

  it('leaves a running job alone only where the action already has it', () => {
    const onSpot = { kind: 'spot', zone: 'us-east-1a', region: 'us-east-1' } as const;
    expect(isFollowed(onSpot, { kind: 'spot', zone: 'us-east-1a', region: 'us-east-1' })).toBe(true);
    expect(isFollowed(onSpot, { kind: 'spot', zone: 'us-east-1b', region: 'us-east-1' })).toBe(false);
    expect(isFollowed(onSpot, { kind: 'on-demand', region: 'us-east-1' })).toBe(false);
    expect(
      isFollowed({ kind: 'on-demand', region: 'us-east-1' }, { kind: 'on-demand', region: 'us-east-1' }),
    ).toBe(true);
    expect(isFollowed(onSpot, { kind: 'wait' })).toBe(true);
  });
});

describe('the progress file', () => {
  it('reads minutes of work saved, and nothing from a file that holds no number', () => {
    expect(parseProgressFile('90\n')).toBe(90 * 60_000);
    expect(parseProgressFile('1.5')).toBe(90_000);
    expect(parseProgressFile('')).toBeUndefined();
    expect(parseProgressFile('-3')).toBeUndefined();
    expect(parseProgressFile('{"minutes": 3}')).toBeUndefined();
  });
});
