/**
 * Rental-mix replay: the default Alibaba GPU trace through the control plane's
 * own rental policies (`npm run simulate`), timed end to end, from reading the
 * files to the finished report. The figures are the `--json` output plus the
 * wall time.
 */
import { join } from 'node:path';
import { ALIBABA_TRACE } from '../planner/paths';
import { replayTrace } from '../planner/replay-trace';
import { DEFAULT_DATA_DIR } from '../shared/adapters/reference-data';
import type { BenchmarkResult } from './support/benchmark';

export async function run(): Promise<BenchmarkResult> {
  const startedAt = performance.now();
  const { report } = await replayTrace({
    tracePath: join(DEFAULT_DATA_DIR, ALIBABA_TRACE),
    dataDir: DEFAULT_DATA_DIR,
  });
  const replaySeconds = Math.round(performance.now() - startedAt) / 1000;
  const usd = (value: number) => `$${value.toLocaleString('en-US', { maximumFractionDigits: 0 })}`;
  return {
    key: 'rentalMix',
    figures: { ...report, replaySeconds },
    summary: [
      `${report.tasks} tasks, ${report.gpuHours} GPU-hours replayed in ${replaySeconds} s`,
      `policy ${usd(report.policyUsd)} = ${report.ratio} x all on-demand (${usd(report.allOnDemandUsd)}), ` +
        `${report.policyVsHindsight} x hindsight (${usd(report.hindsightUsd)})`,
      `reserved GPUs per term: ${report.reservedGpusOverTime.map((term) => term.gpus).join(', ')}; ` +
        `${report.interruptions} spot interruptions; inference on spot: ${report.inferenceOnSpot}`,
    ].join('\n'),
  };
}
