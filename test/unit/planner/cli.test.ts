import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CliIo, main } from '../../../planner/cli';
import { FIXTURE_DATA_DIR, fixturePath } from './fixtures';

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIo = { out: (text) => (out += text), err: (text) => (err += text), cwd: process.cwd() };
  const code = await main(argv, io);
  return { code, out, err };
}

const exportTrace = fixturePath('usage-export.csv');

describe('gpurent simulate', () => {
  it('prints one JSON object with exactly the report figures', async () => {
    const { code, out } = await run([
      'simulate',
      '--trace',
      exportTrace,
      '--data',
      FIXTURE_DATA_DIR,
      '--json',
    ]);
    expect(code).toBe(0);
    const report = JSON.parse(out);
    expect(Object.keys(report)).toEqual([
      'tasks',
      'gpuHours',
      'allOnDemandUsd',
      'policyUsd',
      'ratio',
      'byModeUsd',
      'interruptions',
      'inferenceOnSpot',
      'reservedGpusOverTime',
      'hindsightUsd',
      'policyVsHindsight',
      'assumptions',
    ]);
    // a: 2 GPUs × 720 h, b: 240 h, c: 4 h, d: 24 h (still running: until the last timestamp).
    expect(report.tasks).toBe(4);
    expect(report.gpuHours).toBe(1708);
    // All on-demand: 1,708 GPU-hours × $3.06.
    expect(report.allOnDemandUsd).toBe(5226.48);
    // No history in the only term: no reserved GPUs. Batch c as in the simulate test:
    // $3.966666 on spot and $2.958 on-demand; the rest on-demand ($5,214.24).
    expect(report.byModeUsd).toEqual({ 'on-demand': 5217.198, reserved: 0, spot: 3.966666 });
    expect(report.policyUsd).toBe(5221.164666);
    expect(report.ratio).toBe(0.999);
    expect(report.reservedGpusOverTime).toEqual([{ termStart: '2026-01-01T00:00:00.000Z', gpus: 0 }]);
    expect(report.interruptions).toBe(3);
    expect(report.inferenceOnSpot).toBe(0);
    // Hindsight: 2 reserved GPUs ($2,776.032), b and d on-demand (264 h × $3.06 = $807.84),
    // batch $3.60 on spot and $3.06 on-demand.
    expect(report.hindsightUsd).toBe(3590.532);
    expect(report.policyVsHindsight).toBe(1.4541);
    expect(report.assumptions.join('\n')).toContain('1 lease without ended_at still running');
  });

  it('prints a table for people by default', async () => {
    const { code, out } = await run(['simulate', '--trace', exportTrace, '--data', FIXTURE_DATA_DIR]);
    expect(code).toBe(0);
    expect(out).toMatch(/^Policy +5,221\.16 +0\.999 +1\.454$/m);
    expect(out).toMatch(/^Hindsight +3,590\.53 +0\.687 +1\.000$/m);
    expect(out).toContain('Spot: 3 interruptions, 1 fallback to on-demand, 1 return to spot');
    expect(out).toContain('Assumptions:\n  - A lease holds its GPUs');
  });

  it('reports a bad trace row by line, with exit code 1', async () => {
    const { code, err } = await run([
      'simulate',
      '--trace',
      fixturePath('bad-export.csv'),
      '--data',
      FIXTURE_DATA_DIR,
    ]);
    expect(code).toBe(1);
    expect(err).toBe('bad-export.csv line 3: gpus "0": gpus must be at least 1\n');
  });

  it('says what is missing, with exit code 2', async () => {
    const missing = await run(['simulate']);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('--trace FILE is required');
    expect(missing.err).toContain('Usage: gpurent simulate');
    const unknown = await run(['plan', '--trace', exportTrace]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('unknown command "plan"');
    const badFlag = await run(['simulate', '--trace', exportTrace, '--fast']);
    expect(badFlag.code).toBe(2);
    expect(badFlag.err).toContain("Unknown option '--fast'");
  });

  it('lets the reservation lookback be changed, and says so in the assumptions', async () => {
    const { code, out } = await run([
      'simulate',
      '--trace',
      exportTrace,
      '--data',
      FIXTURE_DATA_DIR,
      '--json',
      '--lookback-days',
      '7',
    ]);
    expect(code).toBe(0);
    expect(JSON.parse(out).assumptions.join('\n')).toContain(
      'from the last 7 days of reserved + on-demand demand',
    );
    const bad = await run(['simulate', '--trace', exportTrace, '--lookback-days', 'soon']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--lookback-days must be a positive number of days, not "soon"');
  });

  it('reports a missing file with exit code 1', async () => {
    const { code, err } = await run([
      'simulate',
      '--trace',
      fixturePath('nope.csv'),
      '--data',
      FIXTURE_DATA_DIR,
    ]);
    expect(code).toBe(1);
    expect(err).toContain('nope.csv');
  });

  it('names the zones whose region has no on-demand price, with exit code 1, instead of a stack trace', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gpurent-unpriced-'));
    await mkdir(join(dir, 'spot-availability-aws-v100'));
    await mkdir(join(dir, 'spot-prices-aws-v100'));
    const trace = JSON.stringify({ metadata: { gap_seconds: 195 }, data: [0, 1, 0, 0] });
    await writeFile(join(dir, 'spot-availability-aws-v100/us-east-1a_v100_1.json'), trace);
    await writeFile(join(dir, 'spot-availability-aws-v100/xx-nowhere-9a_v100_1.json'), trace);
    await writeFile(
      join(dir, 'spot-prices-aws-v100/v100_spot_prices.json'),
      JSON.stringify({ 'us-east-1a_v100_1': [1, 1, 1, 1], 'xx-nowhere-9a_v100_1': [1, 1, 1, 1] }),
    );
    const { code, err } = await run(['simulate', '--trace', exportTrace, '--data', dir]);
    expect(code).toBe(1);
    expect(err).toContain('no on-demand price of p3.2xlarge in xx-nowhere-9 (zones xx-nowhere-9a)');
    expect(err).not.toContain('    at ');
  });
});
