import { describe, expect, it } from 'vitest';
import { hundredths } from '../../../cli/reports';

describe('gpurent profile and audit figures', () => {
  it('rounds to a hundredth, and shows a use under half a hundredth as <0.01, not as nothing', () => {
    expect([1.234, 0.005, 0.0049, 0.003, 0, 12].map(hundredths)).toEqual([
      1.23,
      0.01,
      '<0.01',
      '<0.01',
      0,
      12,
    ]);
  });
});
