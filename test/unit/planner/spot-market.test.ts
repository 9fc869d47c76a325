import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpotTraces, SpotDataError } from '../../../shared/adapters/spot-trace-files';
import { SpotMarket, type SpotTraces } from '../../../shared/planning/spot-market';
import { FIXTURE_DATA_DIR, HOUR, ORIGIN } from './fixtures';

describe('loadSpotTraces', () => {
  it('reads one availability file per zone and the price series of the same name', async () => {
    const traces = await loadSpotTraces(FIXTURE_DATA_DIR);
    expect(traces.tickMs).toBe(HOUR);
    expect(traces.ticks).toBe(4);
    expect(traces.zones.map((z) => [z.zone, z.region])).toEqual([
      ['us-east-1a', 'us-east-1'],
      ['us-east-2a', 'us-east-2'],
    ]);
    expect([...(traces.zones[0]?.unavailable ?? [])]).toEqual([0, 1, 0, 1]);
    expect([...(traces.zones[0]?.priceMicroUsdPerHour ?? [])]).toEqual([
      1_000_000, 1_000_000, 1_200_000, 1_000_000,
    ]);
  });

  it('names the file when a zone has no price series', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gpurent-spot-'));
    await mkdir(join(dir, 'spot-availability-aws-v100'));
    await mkdir(join(dir, 'spot-prices-aws-v100'));
    await writeFile(
      join(dir, 'spot-availability-aws-v100/us-east-1a_v100_1.json'),
      '{"metadata":{"gap_seconds":195},"data":[0,1]}',
    );
    await writeFile(join(dir, 'spot-prices-aws-v100/v100_spot_prices.json'), '{"us-west-2a_v100_1":[1,1]}');
    const error = await loadSpotTraces(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpotDataError);
    expect((error as SpotDataError).message).toContain('no price series "us-east-1a_v100_1"');
  });
});

describe('loadSpotTraces on series that do not line up', () => {
  async function folder(zones: Record<string, { gap: number; data: number[]; prices: number[] }>) {
    const dir = await mkdtemp(join(tmpdir(), 'gpurent-spot-'));
    await mkdir(join(dir, 'spot-availability-aws-v100'));
    await mkdir(join(dir, 'spot-prices-aws-v100'));
    const prices: Record<string, number[]> = {};
    for (const [zone, { gap, data, prices: series }] of Object.entries(zones)) {
      await writeFile(
        join(dir, `spot-availability-aws-v100/${zone}_v100_1.json`),
        JSON.stringify({ metadata: { gap_seconds: gap }, data }),
      );
      prices[`${zone}_v100_1`] = series;
    }
    await writeFile(join(dir, 'spot-prices-aws-v100/v100_spot_prices.json'), JSON.stringify(prices));
    return dir;
  }

  it('cuts every zone to the shortest series, availability or price, and records the longest', async () => {
    const traces = await loadSpotTraces(
      await folder({
        'us-east-1a': { gap: 60, data: [0, 1, 0, 1], prices: [1, 2, 3] },
        'us-east-2a': { gap: 60, data: [1, 1, 0, 0, 0], prices: [1, 1, 1, 1, 1] },
      }),
    );
    expect(traces.ticks).toBe(3);
    expect(traces.cutFromTicks).toBe(5);
    expect(traces.zones.map((zone) => [...zone.unavailable])).toEqual([
      [0, 1, 0],
      [1, 1, 0],
    ]);
    expect([...(traces.zones[0]?.priceMicroUsdPerHour ?? [])]).toEqual([1_000_000, 2_000_000, 3_000_000]);
  });

  it('leaves series of one length whole, without a cut', async () => {
    const traces = await loadSpotTraces(
      await folder({ 'us-east-1a': { gap: 60, data: [0, 1], prices: [1, 2] } }),
    );
    expect(traces.ticks).toBe(2);
    expect(traces.cutFromTicks).toBeUndefined();
  });

  it('refuses zones probed at different intervals, and an empty series, naming the file', async () => {
    const mixed = await loadSpotTraces(
      await folder({
        'us-east-1a': { gap: 60, data: [0, 1], prices: [1, 1] },
        'us-east-2a': { gap: 195, data: [0, 1], prices: [1, 1] },
      }),
    ).catch((e: unknown) => e);
    expect(mixed).toBeInstanceOf(SpotDataError);
    expect((mixed as SpotDataError).file).toContain('us-east-2a_v100_1.json');
    expect((mixed as SpotDataError).problem).toBe('probed every 195 s, the other zones every 60 s');
    const empty = await loadSpotTraces(
      await folder({ 'us-east-1a': { gap: 60, data: [], prices: [] } }),
    ).catch((e: unknown) => e);
    expect(empty).toBeInstanceOf(SpotDataError);
    expect((empty as SpotDataError).problem).toBe('an availability or price series with no ticks');
  });
});

describe('SpotMarket', () => {
  const market = async () => new SpotMarket(await loadSpotTraces(FIXTURE_DATA_DIR), ORIGIN);

  it('reads tick floor(t / tick) modulo the trace length', async () => {
    const spot = await market();
    expect(spot.isAvailable('us-east-1a', ORIGIN + 0.5 * HOUR)).toBe(true);
    expect(spot.isAvailable('us-east-1a', ORIGIN + 1.5 * HOUR)).toBe(false);
    // Tick 4 is tick 0 again; tick 6 is tick 2.
    expect(spot.isAvailable('us-east-1a', ORIGIN + 4.5 * HOUR)).toBe(true);
    expect(spot.priceMicroUsdPerHour('us-east-1a', ORIGIN + 6 * HOUR)).toBe(1_200_000);
  });

  it('finds the next loss of capacity, going round the trace', async () => {
    const spot = await market();
    expect(spot.nextLossMs('us-east-1a', ORIGIN)).toBe(ORIGIN + HOUR);
    expect(spot.nextLossMs('us-east-1a', ORIGIN + 2.5 * HOUR)).toBe(ORIGIN + 3 * HOUR);
    expect(spot.nextLossMs('us-east-2a', ORIGIN + 0.25 * HOUR)).toBe(ORIGIN + 2 * HOUR);
    // Gone right now: the loss is now.
    expect(spot.nextLossMs('us-east-2a', ORIGIN + 3.5 * HOUR)).toBe(ORIGIN + 3.5 * HOUR);
    // From tick 4 (= tick 0) the next loss of us-east-2a is tick 6 (= tick 2).
    expect(spot.nextLossMs('us-east-2a', ORIGIN + 4 * HOUR)).toBe(ORIGIN + 6 * HOUR);
  });

  it('never expects a loss in a zone that never lost capacity', () => {
    const traces: SpotTraces = {
      instanceType: 'p3.2xlarge',
      tickMs: HOUR,
      ticks: 2,
      zones: [
        {
          zone: 'us-west-2c',
          region: 'us-west-2',
          unavailable: Uint8Array.from([0, 0]),
          priceMicroUsdPerHour: Int32Array.from([1, 1]),
        },
      ],
    };
    expect(new SpotMarket(traces, ORIGIN).nextLossMs('us-west-2c', ORIGIN)).toBe(Number.POSITIVE_INFINITY);
  });

  it('knows the cheapest zone with capacity in every tick, or that there is none', async () => {
    const spot = await market();
    expect([0, 1, 2, 3, 4, -1].map((tick) => spot.cheapestAvailableMicroUsdPerHour(tick))).toEqual([
      1_000_000,
      1_400_000,
      1_200_000,
      null,
      1_000_000,
      null,
    ]);
  });

  it('describes every zone as a spot pool with its recent failure', async () => {
    const spot = await market();
    const pools = spot.pools(ORIGIN + 1.5 * HOUR, new Map([['us-east-2a', ORIGIN]]));
    expect(pools).toEqual([
      {
        region: 'us-east-1',
        zone: 'us-east-1a',
        instanceType: 'p3.2xlarge',
        mode: 'spot',
        priceMicroUsdPerHour: 1_000_000,
        available: false,
        lastCapacityFailureAtMs: undefined,
      },
      {
        region: 'us-east-2',
        zone: 'us-east-2a',
        instanceType: 'p3.2xlarge',
        mode: 'spot',
        priceMicroUsdPerHour: 1_400_000,
        available: true,
        lastCapacityFailureAtMs: ORIGIN,
      },
    ]);
  });
});
