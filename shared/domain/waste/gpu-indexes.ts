import type { PriceCatalog } from '../catalog';

/** One GPU's telemetry series: the instance the agent runs on and the GPU index it reports. */
export interface GpuRef {
  readonly instanceId: string;
  readonly gpuIndex: number;
}

export const gpuRefKey = (gpu: GpuRef) => `${gpu.instanceId}#${gpu.gpuIndex}`;

/**
 * The GPU indexes the CloudWatch agent reports for an instance type: 0..n-1
 * for a type with n GPUs. A fractional type (g6f: a share of one GPU) shows
 * its guest one device, index 0, as does a type the catalog no longer knows.
 */
export function gpuIndexesOf(catalog: Pick<PriceCatalog, 'gpusPerInstance'>, instanceType: string): number[] {
  const devices = Math.max(1, Math.floor(catalog.gpusPerInstance(instanceType)));
  return Array.from({ length: devices }, (_, index) => index);
}

/** Every GPU of a lease's instances, so that none is left out of a judgement. */
export function gpusOfInstances(
  catalog: Pick<PriceCatalog, 'gpusPerInstance'>,
  instances: readonly { readonly instanceId: string; readonly instanceType: string }[],
): GpuRef[] {
  return instances.flatMap((instance) =>
    gpuIndexesOf(catalog, instance.instanceType).map((gpuIndex) => ({
      instanceId: instance.instanceId,
      gpuIndex,
    })),
  );
}
