import { describe, expect, it } from 'vitest';
import { selectBenchmarks, UnknownBenchmarkError } from '../../../bench/support/selection';

const VALID = ['rental-mix', 'metering', 'autoscaling', 'functions'];

describe('selectBenchmarks', () => {
  it('runs every benchmark when none is named', () => {
    expect(selectBenchmarks([], VALID)).toEqual(VALID);
  });

  it('runs the named ones once each, in the order given', () => {
    expect(selectBenchmarks(['functions', 'metering', 'functions'], VALID)).toEqual([
      'functions',
      'metering',
    ]);
  });

  it('rejects unknown names and lists the valid ones', () => {
    const attempt = () => selectBenchmarks(['metering', 'metring', 'gpu'], VALID);

    expect(attempt).toThrow(UnknownBenchmarkError);
    expect(attempt).toThrow(
      'Unknown benchmarks: metring, gpu. Valid names: rental-mix, metering, autoscaling, functions',
    );
  });
});
