/**
 * `npm run bench -- cli`: how long `gpurent --help` takes to answer, in a fresh
 * `node` process each time, against bare `node -e 0` measured the same way in
 * the same run (the cost of starting Node itself).
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import type { BenchmarkResult } from './support/benchmark';
import { REPO_ROOT } from './support/paths';
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
  const bin = resolve(REPO_ROOT, 'bin/gpurent.js');
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
  };
  return {
    key: 'cli',
    figures,
    summary: `gpurent --help ${figures.helpMs} ms, lease create --help ${figures.leaseCreateHelpMs} ms, group put --help ${figures.groupPutHelpMs} ms; bare node ${figures.bareNodeMs} ms (${figures.helpOverBare}x), median of ${ROUNDS}`,
  };
}
