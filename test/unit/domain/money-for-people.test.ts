import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatUsdForPeople, formatUsdPerHourForPeople } from '../../../shared/domain/money';

describe('formatUsdForPeople: rounded half up to the cent, exact under a cent', () => {
  it.each([
    [0, '$0.00'],
    [14_999, '$0.01'],
    [15_000, '$0.02'],
    [16_767, '$0.02'],
    [29_999, '$0.03'],
    [1_006_000, '$1.01'],
    [1_004_999, '$1.00'],
    [25_000_000, '$25.00'],
    [9_999, '$0.009999'],
    [4_200, '$0.0042'],
    [4, '$0.000004'],
    [-15_000, '-$0.02'],
    [-4_200, '-$0.0042'],
  ])('%i µ$ is %s', (micro, shown) => {
    expect(formatUsdForPeople(micro)).toBe(shown);
  });

  it('never truncates: the shown cents are the nearest cents', () => {
    fc.assert(
      fc.property(fc.integer({ min: 10_000, max: 10 ** 12 }), (micro) => {
        const shownCents = Number(formatUsdForPeople(micro).slice(1)) * 100;
        expect(Math.abs(shownCents * 10_000 - micro)).toBeLessThanOrEqual(5_000);
      }),
    );
  });
});

describe('formatUsdPerHourForPeople: a hundredth of a cent, at least the cents', () => {
  it.each([
    [1_006_000, '$1.006/h'],
    [1_000_000, '$1.00/h'],
    [367_200, '$0.3672/h'],
    [367_250, '$0.3673/h'],
    [1_212_340, '$1.2123/h'],
    [40_960_000, '$40.96/h'],
    [4_200, '$0.0042/h'],
  ])('%i µ$/h is %s', (micro, shown) => {
    expect(formatUsdPerHourForPeople(micro)).toBe(shown);
  });
});
