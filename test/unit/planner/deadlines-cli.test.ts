import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DeadlinesUsageError, simulateDeadlines } from '../../../planner/deadlines-cli';
import { DEFAULT_DATA_DIR } from '../../../shared/adapters/reference-data';
import { SpotDataError } from '../../../shared/adapters/spot-trace-files';

interface SyntheticZone {
  readonly zone: string;
  /** Ticks of a cycle whose first third has no capacity. */
  readonly period: number;
  readonly ticks: number;
}

const TWO_ZONES: readonly SyntheticZone[] = [
  { zone: 'us-east-1a', period: 50, ticks: 2000 },
  { zone: 'us-west-2a', period: 170, ticks: 2000 },
];

/** A data folder laid out like ../shared/data with synthetic zones (not the real traces). */
function syntheticData(zones: readonly SyntheticZone[] = TWO_ZONES): string {
  const dir = mkdtempSync(join(tmpdir(), 'deadlines-'));
  mkdirSync(join(dir, 'spot-availability-aws-v100'));
  mkdirSync(join(dir, 'spot-prices-aws-v100'));
  mkdirSync(join(dir, 'aws-gpu-prices'));
  const prices: Record<string, number[]> = {};
  for (const { zone, period, ticks } of zones) {
    const data = Array.from({ length: ticks }, (_, t) => (t % period < period / 3 ? 1 : 0));
    writeFileSync(
      join(dir, 'spot-availability-aws-v100', `${zone}_v100_1.json`),
      JSON.stringify({ metadata: { gap_seconds: 195 }, data }),
    );
    prices[`${zone}_v100_1`] = Array.from({ length: ticks }, () => 0.9);
  }
  writeFileSync(join(dir, 'spot-prices-aws-v100', 'v100_spot_prices.json'), JSON.stringify(prices));
  copyFileSync(
    join(DEFAULT_DATA_DIR, 'aws-gpu-prices', 'catalog.json'),
    join(dir, 'aws-gpu-prices', 'catalog.json'),
  );
  return dir;
}

describe('simulate --deadlines', () => {
  it('replays jobs on any folder laid out like the reference data and prints JSON per policy', async () => {
    let text = '';
    await simulateDeadlines(
      ['--deadlines', '--data', syntheticData(), '--json', '--work-hours', '12', '--starts', '4'],
      { out: (t) => (text += t), cwd: '/' },
    );
    const result = JSON.parse(text);
    expect(result.zones).toEqual(['us-east-1a', 'us-west-2a']);
    expect(result.jobs).toBe(4);
    const rows = Object.fromEntries(result.rows.map((row: { policy: string }) => [row.policy, row]));
    expect(Object.keys(rows)).toEqual(['all on-demand', 'greedy', 'uniform progress', 'gpurent']);
    expect(rows['all on-demand'].costVsOnDemand).toBeCloseTo(1, 6);
    for (const row of result.rows) {
      expect(row.misses).toBe(0);
      expect(row.costVsOptimum).toBeGreaterThanOrEqual(1 - 1e-9);
    }
    expect(rows.gpurent.costVsOnDemand).toBeLessThan(1);
  });

  it('refuses an unknown zone and a deadline shorter than the work as usage errors', async () => {
    const io = { out: () => undefined, cwd: '/' };
    await expect(simulateDeadlines(['--deadlines', '--zones', 'mars-1a'], io)).rejects.toThrow(
      DeadlinesUsageError,
    );
    await expect(simulateDeadlines(['--deadlines', '--deadline-factor', '0.5'], io)).rejects.toThrow(
      DeadlinesUsageError,
    );
  });

  it('replays zones whose traces differ in length over the shortest, and says so', async () => {
    let text = '';
    const data = syntheticData([
      { zone: 'us-east-1a', period: 50, ticks: 2000 },
      { zone: 'us-west-2a', period: 170, ticks: 1500 },
    ]);
    const io = { out: (t: string) => (text += t), cwd: '/' };
    await simulateDeadlines(
      ['--deadlines', '--data', data, '--json', '--work-hours', '12', '--starts', '4'],
      io,
    );
    const result = JSON.parse(text);
    expect(result.traces).toEqual({ ticks: 1500, tickSeconds: 195, cutFromTicks: 2000 });
    expect(result.jobs).toBe(4);
    text = '';
    await simulateDeadlines(['--deadlines', '--data', data, '--work-hours', '12', '--starts', '4'], io);
    expect(text).toContain('all replayed over the shortest, 1500 of up to 2000 ticks');
  });

  it('names the catalog and the region when a traced zone has no on-demand price, unless --zones leaves it out', async () => {
    const data = syntheticData([...TWO_ZONES, { zone: 'xx-nowhere-9a', period: 60, ticks: 2000 }]);
    const io = { out: () => undefined, cwd: '/' };
    const args = ['--deadlines', '--data', data, '--json', '--work-hours', '12', '--starts', '2'];
    const error = await simulateDeadlines(args, io).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpotDataError);
    expect((error as SpotDataError).file).toBe(join(data, 'aws-gpu-prices', 'catalog.json'));
    expect((error as SpotDataError).problem).toContain('no on-demand price of p3.2xlarge in xx-nowhere-9');
    await expect(simulateDeadlines([...args, '--zones', 'us-east-1a'], io)).resolves.toBeUndefined();
  });
});
