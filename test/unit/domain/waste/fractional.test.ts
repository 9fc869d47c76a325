import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { priceCatalog } from '../../../../shared/catalog';
import {
  fractionFor,
  GPU_FRACTIONS,
  instancesFor,
  isFractionalType,
  isValidGpuCount,
  typesForGpus,
} from '../../../../shared/domain/waste/fractional';

/** A made-up catalog: type names mapped to GPUs per instance, fractional ones included. */
const catalogOf = (counts: Record<string, number>) => ({
  gpusPerInstance: (type: string) => counts[type] ?? 1,
});

const PER_INSTANCE = [0.125, 0.25, 0.5, 1, 2, 4, 8];

describe('fractional GPUs', () => {
  it('accepts whole GPUs and the three fractions only', () => {
    expect([1, 2, 8, 0.125, 0.25, 0.5].every(isValidGpuCount)).toBe(true);
    expect([0, -1, 0.3, 0.75, 1.5, 0.0625, Number.NaN].some(isValidGpuCount)).toBe(false);
  });

  it('knows the catalog fractional types: g6f and gr6f', () => {
    const fractional = ['g6f.large', 'g6f.xlarge', 'g6f.2xlarge', 'g6f.4xlarge', 'gr6f.4xlarge'];
    expect(fractional.every((type) => isFractionalType(priceCatalog, type))).toBe(true);
    expect(['g6.xlarge', 'p4d.24xlarge'].some((type) => isFractionalType(priceCatalog, type))).toBe(false);
  });

  it('a one-GPU request is never eight g6f.large; a quarter takes one g6f.2xlarge or g6f.4xlarge', () => {
    const types = ['g6f.large', 'g6f.2xlarge', 'g6f.4xlarge', 'g6.xlarge', 'g6.12xlarge'];
    expect(typesForGpus(priceCatalog, 1, types)).toEqual(['g6.xlarge', 'g6.12xlarge']);
    expect(typesForGpus(priceCatalog, 0.25, types)).toEqual(['g6f.2xlarge', 'g6f.4xlarge']);
    expect(instancesFor(priceCatalog, 1, 'g6f.large')).toBeNull();
    expect(instancesFor(priceCatalog, 0.25, 'g6f.4xlarge')).toBe(1);
    expect(instancesFor(priceCatalog, 8, 'g6.12xlarge')).toBe(2);
    expect(instancesFor(priceCatalog, 2, 'g6.12xlarge')).toBeNull();
  });

  it('maps a GPU share to the smallest fraction that holds it', () => {
    expect([0.05, 0.125, 0.2, 0.46, 0.5, 0.81, 1].map(fractionFor)).toEqual([
      0.125,
      0.125,
      0.25,
      0.5,
      0.5,
      null,
      null,
    ]);
  });

  it('whole requests rank no fractional type; fractional requests only fractional types that hold the fraction', () => {
    const catalog = fc.dictionary(
      fc.string({ minLength: 1, maxLength: 6 }),
      fc.constantFrom(...PER_INSTANCE),
      { minKeys: 1, maxKeys: 12 },
    );
    const gpus = fc.oneof(fc.integer({ min: 1, max: 16 }), fc.constantFrom(...GPU_FRACTIONS));
    fc.assert(
      fc.property(catalog, gpus, (counts, requested) => {
        const types = Object.keys(counts);
        const kept = typesForGpus(catalogOf(counts), requested, types);
        expect(kept).toEqual(types.filter((type) => kept.includes(type)));
        for (const type of types) {
          const share = counts[type] as number;
          const fits = requested < 1 ? share < 1 && share >= requested : share >= 1;
          expect(kept.includes(type)).toBe(fits);
        }
      }),
    );
  });
});
