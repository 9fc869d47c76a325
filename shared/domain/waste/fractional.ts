import type { PriceCatalog } from '../catalog';

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

/** A fractional type's instances each hold a share of one GPU (`gpusPerInstance` < 1 in the catalog). */
export const isFractionalType = (catalog: GpuCounts, instanceType: string) =>
  catalog.gpusPerInstance(instanceType) < 1;

/** The smallest allowed fraction that holds `share` of a GPU (0-1]; null when only a whole GPU does. */
export function fractionFor(share: number): GpuFraction | null {
  return GPU_FRACTIONS.find((fraction) => fraction >= share) ?? null;
}

/**
 * The candidate types a request may rank, in their order: a whole-GPU request
 * never a fractional type (eight eighths of a GPU are eight machines, not one
 * GPU a task can use); a fractional request only fractional types whose share
 * holds the fraction asked. Placement keeps its own rules on top (whole
 * instances, prices, capacity).
 */
export function typesForGpus(catalog: GpuCounts, gpus: number, instanceTypes: readonly string[]): string[] {
  if (!isGpuFraction(gpus)) return instanceTypes.filter((type) => !isFractionalType(catalog, type));
  return instanceTypes.filter((type) => {
    const share = catalog.gpusPerInstance(type);
    return share < 1 && share >= gpus;
  });
}

/** Instances of a type a request takes: one for a fraction that fits, gpus / per-instance for whole GPUs; null when it cannot. */
export function instancesFor(catalog: GpuCounts, gpus: number, instanceType: string): number | null {
  const share = catalog.gpusPerInstance(instanceType);
  if (typesForGpus(catalog, gpus, [instanceType]).length === 0) return null;
  if (share < 1) return 1;
  return gpus % share === 0 ? gpus / share : null;
}
