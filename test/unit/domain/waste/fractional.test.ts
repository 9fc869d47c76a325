import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { priceCatalog } from '../../../../shared/catalog';
import { type Pool, rankPools } from '../../../../shared/domain/placement';
import {
  fractionFor,
  GPU_FRACTIONS,
  instancesOfShare,
  isFractionalType,
  isValidGpuCount,
  leaseGpusSchema,
  typesForGpus,
} from '../../../../shared/domain/waste/fractional';
import * as z from '../../../../shared/zod';

/** A made-up catalog: type names mapped to GPUs per instance, fractional ones included. */
const catalogOf = (counts: Record<string, number>) => ({
  gpusPerInstance: (type: string) => counts[type] ?? 1,
});

const PER_INSTANCE = [0.125, 0.25, 0.5, 1, 2, 4, 8];

describe('fractional GPUs', () => {
  it('accepts whole GPUs and the three fractions only', () => {
    expect([1, 2, 8, 0.125, 0.25, 0.5].every(isValidGpuCount)).toBe(true);
    expect([0, -1, 0.3, 0.75, 1.5, 0.0625, Number.NaN].some(isValidGpuCount)).toBe(false);
    expect([1, 8, 0.125, 0.25, 0.5].every((gpus) => z.safeParse(leaseGpusSchema, gpus).success)).toBe(true);
    expect([0, 9, 0.3, 0.75, 1.5, '1'].some((gpus) => z.safeParse(leaseGpusSchema, gpus).success)).toBe(
      false,
    );
    // What a 400 says: what the field takes, not the union's "Invalid input".
    expect(z.safeParse(leaseGpusSchema, 1.5).error?.issues.map((issue) => issue.message)).toEqual([
      'must be a whole number of GPUs from 1 to 8, or 0.125, 0.25, 0.5 of one GPU',
    ]);
  });

  it('knows the catalog fractional types: g6f and gr6f', () => {
    const fractional = ['g6f.large', 'g6f.xlarge', 'g6f.2xlarge', 'g6f.4xlarge', 'gr6f.4xlarge'];
    expect(fractional.every((type) => isFractionalType(priceCatalog, type))).toBe(true);
    expect(['g6.xlarge', 'p4d.24xlarge'].some((type) => isFractionalType(priceCatalog, type))).toBe(false);
  });

  it('a one-GPU request is never eight g6f.large; a quarter takes one g6f.2xlarge, of that very fraction', () => {
    const types = ['g6f.large', 'g6f.2xlarge', 'g6f.4xlarge', 'g6.xlarge', 'g6.12xlarge'];
    expect(typesForGpus(priceCatalog, 1, types)).toEqual(['g6.xlarge']);
    expect(typesForGpus(priceCatalog, 4, types)).toEqual(['g6.xlarge', 'g6.12xlarge']);
    expect(typesForGpus(priceCatalog, 0.25, types)).toEqual(['g6f.2xlarge']);
    expect(instancesOfShare(1, 0.125)).toBeNull();
    expect(instancesOfShare(0.25, 0.25)).toBe(1);
    expect(instancesOfShare(0.25, 0.5)).toBeNull();
    expect(instancesOfShare(0.5, 1)).toBeNull();
    expect(instancesOfShare(8, 4)).toBe(2);
    expect(instancesOfShare(2, 4)).toBeNull();
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

  it('whole requests rank no fractional pool; fractional requests rank only pools of their fraction', () => {
    const pool = fc.record({
      instanceType: fc.constantFrom('a.1', 'b.2', 'c.3', 'd.4'),
      zone: fc.constantFrom('us-east-1a', 'us-east-1b'),
      gpusPerInstance: fc.constantFrom(...PER_INSTANCE),
      priceMicroUsdPerHour: fc.integer({ min: 1, max: 40_000_000 }),
    });
    const gpus = fc.oneof(fc.integer({ min: 1, max: 8 }), fc.constantFrom(...GPU_FRACTIONS));
    fc.assert(
      fc.property(fc.array(pool, { minLength: 1, maxLength: 20 }), gpus, (drawn, requested) => {
        const pools: Pool[] = drawn.map((p) => ({
          ...p,
          region: 'us-east-1',
          mode: 'on-demand',
          available: true,
        }));
        const ranked = rankPools(
          { instanceTypes: ['a.1', 'b.2', 'c.3', 'd.4'], mode: 'on-demand', nowMs: 0, gpus: requested },
          pools,
        );
        for (const assessment of ranked) {
          if (!assessment.eligible) continue;
          const share = assessment.pool.gpusPerInstance as number;
          if (requested < 1) expect([share, assessment.instances]).toEqual([requested, 1]);
          else expect(share >= 1 && assessment.instances * share === requested).toBe(true);
        }
        const fitting = pools.filter((p) =>
          requested < 1
            ? (p.gpusPerInstance ?? 1) === requested
            : (p.gpusPerInstance ?? 1) >= 1 && requested % (p.gpusPerInstance ?? 1) === 0,
        );
        expect(ranked).toHaveLength(fitting.length);
      }),
    );
  });

  it('keeps the candidate types that hold the request exactly, in their order', () => {
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
          const fits = requested < 1 ? share === requested : share >= 1 && requested % share === 0;
          expect(kept.includes(type)).toBe(fits);
        }
      }),
    );
  });
});
