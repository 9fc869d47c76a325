/**
 * `npm run bench [-- NAME ...]`: runs every benchmark, or the named ones, prints
 * their summaries and merges their figures into bench/results.json.
 */
import { resolve } from 'node:path';
import type { BenchmarkModule, BenchmarkResult } from './support/benchmark';
import { describeMachine } from './support/machine';
import { REPO_ROOT } from './support/paths';
import { mergeResults, readResultsFile, writeResultsFile } from './support/results';
import { selectBenchmarks, UnknownBenchmarkError } from './support/selection';

/** Imported lazily: a benchmark loads its data and dependencies only when it runs. */
const BENCHMARKS: Record<string, () => Promise<BenchmarkModule>> = {
  'rental-mix': () => import('./rental-mix'),
  metering: () => import('./metering'),
  autoscaling: () => import('./autoscaling'),
  functions: () => import('./functions'),
  budgets: () => import('./budgets'),
  cli: () => import('./cli'),
  provisioning: () => import('./provisioning'),
  admission: () => import('./admission'),
  waste: () => import('./waste'),
  deadlines: () => import('./deadlines'),
  tasks: () => import('./tasks'),
  'warm-start': () => import('./warm-start'),
  load: () => import('./load'),
  neighbours: () => import('./neighbours'),
};

const RESULTS_PATH = resolve(REPO_ROOT, 'bench/results.json');

async function main(requested: readonly string[]): Promise<number> {
  let names: string[];
  try {
    names = selectBenchmarks(requested, Object.keys(BENCHMARKS));
  } catch (error) {
    if (!(error instanceof UnknownBenchmarkError)) throw error;
    console.error(error.message);
    return 2;
  }
  // Read before running, so that a broken results file fails fast rather than after the benchmarks.
  const existing = readResultsFile(RESULTS_PATH);
  const machine = describeMachine();
  const results: BenchmarkResult[] = [];
  const failed: string[] = [];
  for (const name of names) {
    console.log(`\n== ${name}`);
    try {
      const benchmark = await (BENCHMARKS[name] as () => Promise<BenchmarkModule>)();
      const result = await benchmark.run();
      console.log(result.summary);
      results.push(result);
    } catch (error) {
      console.error(
        `${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      failed.push(name);
    }
  }
  if (results.length > 0) {
    writeResultsFile(RESULTS_PATH, mergeResults(existing, results, machine));
    console.log(`\nRecorded ${results.map((r) => r.key).join(', ')} in bench/results.json`);
  }
  if (failed.length > 0) console.error(`Failed: ${failed.join(', ')}`);
  return failed.length > 0 ? 1 : 0;
}

process.exitCode = await main(process.argv.slice(2));
