/** What every benchmark module exports; `bench/run.ts` runs it and records `figures` under `key`. */
export interface BenchmarkResult {
  /** Key in bench/results.json, e.g. `metering`. */
  readonly key: string;
  readonly figures: Record<string, unknown>;
  /** A few lines for people, printed by the runner. */
  readonly summary: string;
}

export interface BenchmarkModule {
  run(): Promise<BenchmarkResult>;
}
