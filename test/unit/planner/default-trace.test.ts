import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALIBABA_TRACE } from '../../../planner/paths';
import { replayTrace } from '../../../planner/replay-trace';
import { DEFAULT_DATA_DIR } from '../../../shared/adapters/reference-data';

// The goals on the real trace, read from ../shared/data beside the repository.
describe('the default Alibaba replay', () => {
  it('stays within 5% of hindsight, never puts inference on spot, and beats all on-demand', async () => {
    const { report } = await replayTrace({
      tracePath: join(DEFAULT_DATA_DIR, ALIBABA_TRACE),
      dataDir: DEFAULT_DATA_DIR,
    });
    expect(report.tasks).toBe(6203);
    expect(report.inferenceOnSpot).toBe(0);
    expect(report.policyVsHindsight).toBeGreaterThanOrEqual(1);
    expect(report.policyVsHindsight).toBeLessThanOrEqual(1.05);
    expect(report.ratio).toBeLessThan(0.8);
    expect(report.reservedGpusOverTime.map((term) => term.termStart)).toEqual([
      '2023-02-15T00:00:00.000Z',
      '2023-03-17T00:00:00.000Z',
      '2023-04-16T00:00:00.000Z',
      '2023-05-16T00:00:00.000Z',
      '2023-06-15T00:00:00.000Z',
    ]);
    // Past demand only: nothing to go on in the first term.
    expect(report.reservedGpusOverTime[0]?.gpus).toBe(0);
    const { 'on-demand': onDemand, reserved, spot } = report.byModeUsd;
    expect(Math.round((onDemand + reserved + spot) * 1e6)).toBe(Math.round(report.policyUsd * 1e6));
  }, 30_000);
});
