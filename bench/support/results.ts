import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { BenchmarkResult } from './benchmark';
import type { MachineInfo } from './machine';

export type ResultsFile = Record<string, unknown>;

export class ResultsFileError extends Error {
  constructor(
    readonly path: string,
    problem: string,
  ) {
    super(`${path} ${problem}; fix or delete it so that benchmarks can record their figures`);
    this.name = 'ResultsFileError';
  }
}

/**
 * The results file after a run: each benchmark run replaces its own key, the
 * others keep their last figures, and `machine` describes this run.
 */
export function mergeResults(
  existing: ResultsFile,
  results: readonly Pick<BenchmarkResult, 'key' | 'figures'>[],
  machine: MachineInfo,
): ResultsFile {
  const merged: ResultsFile = { ...existing, machine };
  for (const { key, figures } of results) merged[key] = figures;
  return merged;
}

export function readResultsFile(path: string): ResultsFile {
  if (!existsSync(path)) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ResultsFileError(path, `is not valid JSON (${(error as Error).message})`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ResultsFileError(path, 'does not hold a JSON object');
  }
  return parsed as ResultsFile;
}

export function writeResultsFile(path: string, results: ResultsFile): void {
  writeFileSync(path, `${JSON.stringify(results, null, 2)}\n`);
}
