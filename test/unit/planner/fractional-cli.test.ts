import { describe, expect, it } from 'vitest';
import { type CliIo, main } from '../../../planner/cli';
import { priceCatalog } from '../../../shared/catalog';
import { costOfRun } from '../../../shared/domain/billing';
import { fixturePath } from './fixtures';

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIo = { out: (text) => (out += text), err: (text) => (err += text), cwd: process.cwd() };
  const code = await main(argv, io);
  return { code, out, err };
}

const alibaba = fixturePath('alibaba-sample.csv');
const bill = (type: string, seconds: number) =>
  costOfRun(
    { launchedAtMs: 0, priceMicroUsdPerHour: priceCatalog.onDemandMicroPerHour(type, 'us-east-1') },
    seconds * 1000,
  );

describe('gpurent simulate --fractional', () => {
  it('puts the sample trace’s 460 and 220 milli-GPU tasks on a half and a quarter, against a whole p3.2xlarge each', async () => {
    const { code, out } = await run(['simulate', '--fractional', '--trace', alibaba, '--json']);
    expect(code).toBe(0);
    const report = JSON.parse(out);
    // openb-pod-0001: 427,061 s to 12,902,960 s at 460 milli; openb-pod-0022: 9,679,175 s to 9,973,826 s at 220.
    const half = 12_902_960 - 427_061;
    const quarter = 9_973_826 - 9_679_175;
    expect(report).toMatchObject({ sharingTasks: 2, onFractions: 2, byFraction: { 0.5: 1, 0.25: 1 } });
    expect(report.wholeUsd * 1e6).toBeCloseTo(bill('p3.2xlarge', half) + bill('p3.2xlarge', quarter), 3);
    expect(report.fractionalUsd * 1e6).toBeCloseTo(
      bill('g6f.4xlarge', half) + bill('g6f.2xlarge', quarter),
      3,
    );
    expect(report.savingShare).toBeGreaterThan(0);
  });

  it('prints the saving as a table by default, leaving the default replay unchanged', async () => {
    const { code, out } = await run(['simulate', '--fractional', '--trace', alibaba]);
    expect(code).toBe(0);
    expect(out).toContain('GPU-sharing tasks: 2, on fractions: 2');
    expect(out).toMatch(/saving: \$[\d,.]+ \(69\.\d % of the whole-GPU replay\)/);
  });

  it('refuses a trace without GPU shares and an unknown whole type', async () => {
    const noShares = await run(['simulate', '--fractional', '--trace', fixturePath('usage-export.csv')]);
    expect(noShares.code).toBe(1);
    expect(noShares.err).toContain('--fractional needs the Alibaba pod list');
    const badType = await run(['simulate', '--fractional', '--trace', alibaba, '--whole-type', 'x9.huge']);
    expect(badType.code).toBe(2);
    expect(badType.err).toContain('--whole-type x9.huge has no on-demand price');
  });
});
