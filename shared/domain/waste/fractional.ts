import * as z from '../../zod';
import type { PriceCatalog } from '../catalog';
import { MAX_GPUS_PER_LEASE } from '../lease';

/**
 * The shares of one GPU AWS sells as an instance (g6f, gr6f): an eighth, a
 * quarter, a half. A lease asks either for whole GPUs or for one of these.
 */
export const GPU_FRACTIONS = [0.125, 0.25, 0.5] as const;
export type GpuFraction = (typeof GPU_FRACTIONS)[number];

type GpuCounts = Pick<PriceCatalog, 'gpusPerInstance'>;

export const isGpuFraction = (gpus: number): gpus is GpuFraction =>
  (GPU_FRACTIONS as readonly number[]).includes(gpus);

/** Whether a `gpus` figure is one a lease may ask for: a whole number of GPUs, or an allowed fraction. */
export const isValidGpuCount = (gpus: number) => (Number.isInteger(gpus) && gpus >= 1) || isGpuFraction(gpus);

/** A lease's `gpus`: 1-8 whole GPUs or one of the fractions (a union, so JSON Schema can state it). */
export const leaseGpusSchema = z.union(
  [
    z.number().check(z.int(), z.gte(1), z.lte(MAX_GPUS_PER_LEASE)),
    ...GPU_FRACTIONS.map((fraction) => z.literal(fraction)),
  ],
  // A union's own message is "Invalid input": say what it takes.
  {
    error: `must be a whole number of GPUs from 1 to ${MAX_GPUS_PER_LEASE}, or ${GPU_FRACTIONS.join(', ')} of one GPU`,
  },
);

/** A fractional type's instances each hold a share of one GPU (`gpusPerInstance` < 1 in the catalog). */
export const isFractionalType = (catalog: GpuCounts, instanceType: string) =>
  catalog.gpusPerInstance(instanceType) < 1;

/** The smallest allowed fraction that holds `share` of a GPU (0-1]; null when only a whole GPU does. */
export function fractionFor(share: number): GpuFraction | null {
  return GPU_FRACTIONS.find((fraction) => fraction >= share) ?? null;
}

/**
 * Instances of a type holding `perInstance` GPUs each that a request of `gpus`
 * takes, or null when they cannot hold it exactly (a lease owns exactly its
 * GPUs). A whole-GPU request never takes a fractional type: eight eighths of
 * a GPU are eight machines, not one GPU a task can use. A fraction takes one
 * instance of a type of that very fraction.
 */
export function instancesOfShare(gpus: number, perInstance: number): number | null {
  if (isGpuFraction(gpus)) return perInstance === gpus ? 1 : null;
  if (perInstance < 1 || gpus % perInstance !== 0) return null;
  return gpus / perInstance;
}

/** The candidate types (in their order) that can hold the request: see `instancesOfShare`. */
export function typesForGpus(catalog: GpuCounts, gpus: number, instanceTypes: readonly string[]): string[] {
  return instanceTypes.filter((type) => instancesOfShare(gpus, catalog.gpusPerInstance(type)) !== null);
}
