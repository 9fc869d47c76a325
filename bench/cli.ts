/**
 * `npm run bench -- cli`: how long `gpurent --help` takes to answer, in a fresh
 * `node` process each time, against bare `node -e 0` measured the same way in
 * the same run (the cost of starting Node itself). It times the bundle the
 * package ships, built from the sources first (as `npm run build:cli` does).
 */
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { buildCli } from '../scripts/build-cli';
import type { BenchmarkResult } from './support/benchmark';
import { median, round } from './support/stats';

const ROUNDS = 15;

function medianProcessMs(args: readonly string[]): number {
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i += 1) {
    const start = process.hrtime.bigint();
    execFileSync(process.execPath, args, { stdio: 'ignore' });
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return median(times);
}

export async function run(): Promise<BenchmarkResult> {
  const { bin } = await buildCli();
  const bareMs = medianProcessMs(['-e', '0']);
  const helpMs = medianProcessMs([bin, '--help']);
  const subcommandHelpMs = medianProcessMs([bin, 'lease', 'create', '--help']);
  const groupPutHelpMs = medianProcessMs([bin, 'group', 'put', '--help']);
  const figures = {
    rounds: ROUNDS,
    bareNodeMs: round(bareMs, 1),
    helpMs: round(helpMs, 1),
    leaseCreateHelpMs: round(subcommandHelpMs, 1),
    groupPutHelpMs: round(groupPutHelpMs, 1),
    helpOverBare: round(helpMs / bareMs),
    binKiB: round(statSync(bin).size / 1024, 1),
  };
  return {
    key: 'cli',
    figures,
    summary: `gpurent --help ${figures.helpMs} ms, lease create --help ${figures.leaseCreateHelpMs} ms, group put --help ${figures.groupPutHelpMs} ms; bare node ${figures.bareNodeMs} ms (${figures.helpOverBare}x), median of ${ROUNDS}; bin ${figures.binKiB} KiB`,
  };
}
