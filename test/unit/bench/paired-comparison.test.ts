import { describe, expect, it } from 'vitest';
import {
  FLIPS,
  holmRejections,
  pairedDifferences,
  signFlipPValue,
} from '../../../bench/support/paired-comparison';

describe('signFlipPValue', () => {
  it('finds nothing where the two policies paid the same on every job', () => {
    expect(signFlipPValue([0, 0, 0, 0])).toBe(1);
  });

  it('gives the smallest p-value it can when every job cost more', () => {
    const higher = Array.from({ length: 40 }, (_, i) => 0.01 + i / 1000);

    expect(signFlipPValue(higher)).toBeLessThan(5 / FLIPS);
  });

  it('cannot tell a gap of one job in forty from a coin flip', () => {
    const oneDearJob = [0.3, ...Array.from({ length: 39 }, () => 0)];

    // Half the flips leave the one non-zero difference positive.
    expect(signFlipPValue(oneDearJob)).toBeGreaterThan(0.45);
    expect(signFlipPValue(oneDearJob)).toBeLessThan(0.55);
  });

  it('is one-sided: a policy that cost less on every job is not found dearer', () => {
    expect(signFlipPValue(Array.from({ length: 40 }, () => -0.05))).toBeGreaterThan(0.99);
  });

  it('with 8 jobs cannot go below 1/256, whatever the gap', () => {
    expect(signFlipPValue(Array.from({ length: 8 }, () => 1))).toBeGreaterThan(1 / 256 - 0.002);
  });
});

describe('holmRejections', () => {
  it('rejects in order of p-value until one misses its step-down bound', () => {
    // Bounds 0.05/4, 0.05/3, 0.05/2, 0.05: 0.005 and 0.01 pass, 0.03 misses 0.025, and 0.04 is not tried.
    expect(holmRejections([0.01, 0.04, 0.03, 0.005])).toEqual([true, false, false, true]);
  });

  it('rejects nothing when the smallest p-value misses alpha over the count', () => {
    expect(holmRejections(Array.from({ length: 180 }, () => 1 / 256))).toEqual(
      Array.from({ length: 180 }, () => false),
    );
  });
});

describe('pairedDifferences', () => {
  it('subtracts job by job', () => {
    expect(pairedDifferences([1.2, 1, 1.5], [1, 1, 1.6]).map((d) => Number(d.toFixed(6)))).toEqual([
      0.2, 0, -0.1,
    ]);
  });

  it('refuses lists of different jobs', () => {
    expect(() => pairedDifferences([1, 2], [1])).toThrow('paired lists of 2 and 1 jobs');
  });
});
