import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DeadlinesUsageError, simulateDeadlines } from '../../../planner/deadlines-cli';
import { DEFAULT_DATA_DIR } from '../../../shared/adapters/reference-data';

/** A data folder laid out like ../shared/data with two synthetic zones of 2,000 ticks (not the real traces). */
function syntheticData(): string {
  const dir = mkdtempSync(join(tmpdir(), 'deadlines-'));
  mkdirSync(join(dir, 'spot-availability-aws-v100'));
  mkdirSync(join(dir, 'spot-prices-aws-v100'));
  mkdirSync(join(dir, 'aws-gpu-prices'));
  const ticks = 2000;
  const prices: Record<string, number[]> = {};
  for (const [zone, period] of [
    ['us-east-1a', 50],
    ['us-west-2a', 170],
  ] as const) {
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
});
