export class UnknownBenchmarkError extends Error {
  constructor(
    readonly unknown: readonly string[],
    readonly valid: readonly string[],
  ) {
    super(
      `Unknown benchmark${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}. Valid names: ${valid.join(', ')}`,
    );
    this.name = 'UnknownBenchmarkError';
  }
}

/** The benchmarks to run: all of them when none is named, else the named ones once each, in the given order. */
export function selectBenchmarks(requested: readonly string[], valid: readonly string[]): string[] {
  const unknown = requested.filter((name) => !valid.includes(name));
  if (unknown.length > 0) throw new UnknownBenchmarkError(unknown, valid);
  return requested.length === 0 ? [...valid] : [...new Set(requested)];
}
