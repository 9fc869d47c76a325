import { type MicroUsd, usdToMicro } from './money';
import type { StoragePrices } from './storage-prices';

/** One EC2 GPU instance type as the price catalog describes it. */
export interface InstanceOffering {
  readonly instanceType: string;
  readonly gpuModel: string;
  readonly gpuCount: number;
  readonly vcpu: number;
  readonly pricing: Readonly<Record<string, { readonly onDemand?: number; readonly reserved?: number }>>;
}

/**
 * Where a type publishes no 1-year reserved rate, the catalog's median
 * reserved/on-demand ratio in us-east-1 stands in (see ../shared/data/README.md).
 */
export const MEDIAN_RESERVED_RATIO = 0.63;

export class UnknownInstanceTypeError extends Error {
  constructor(
    readonly instanceType: string,
    readonly region: string,
  ) {
    super(`Instance type ${instanceType} has no on-demand price in ${region}`);
    this.name = 'UnknownInstanceTypeError';
  }
}

export class PriceCatalog {
  private readonly byType: ReadonlyMap<string, InstanceOffering>;

  /**
   * @param storage the region's volume and object storage prices, when the
   * caller bills storage (the replays of the planner price GPUs only).
   */
  constructor(
    offerings: readonly InstanceOffering[],
    readonly storage?: StoragePrices,
  ) {
    this.byType = new Map(offerings.filter((o) => o.instanceType).map((o) => [o.instanceType, o]));
  }

  offering(instanceType: string): InstanceOffering | undefined {
    return this.byType.get(instanceType);
  }

  /** GPUs one instance of the type holds; a type the catalog does not know (a record from before it was dropped) counts one. */
  gpusPerInstance(instanceType: string): number {
    return this.byType.get(instanceType)?.gpuCount ?? 1;
  }

  /** Every GPU model the catalog knows, for validating requests. */
  gpuModels(): string[] {
    return [...new Set([...this.byType.values()].map((o) => o.gpuModel))].sort();
  }

  /** The catalog's spelling of a GPU model named in any letter case ("h100" → "H100"). */
  gpuModelNamed(name: string): string | undefined {
    return this.gpuModels().find((model) => sameGpuModel(model, name));
  }

  /** Types priced on-demand in any of `regions`: all of `gpuModel` (any letter case), or the one named. */
  typesFor(
    selector: { gpuModel?: string | undefined; instanceType?: string | undefined },
    regions: readonly string[],
  ): InstanceOffering[] {
    return [...this.byType.values()].filter(
      (o) =>
        (selector.gpuModel === undefined || sameGpuModel(o.gpuModel, selector.gpuModel)) &&
        (selector.instanceType === undefined || o.instanceType === selector.instanceType) &&
        regions.some((region) => o.pricing[region]?.onDemand !== undefined),
    );
  }

  /** Whole-GPU, single-GPU types priced on-demand in the region, cheapest first (scaling group members). */
  singleGpuTypes(region: string): string[] {
    return [...this.byType.values()]
      .filter((o) => o.gpuCount === 1 && o.pricing[region]?.onDemand !== undefined)
      .sort((a, b) => (a.pricing[region]?.onDemand ?? 0) - (b.pricing[region]?.onDemand ?? 0))
      .map((o) => o.instanceType);
  }

  /** Every region some type has a price in. */
  regions(): string[] {
    return [...new Set([...this.byType.values()].flatMap((o) => Object.keys(o.pricing)))].sort();
  }

  /** Whether any type has a price in the region: the catalog's list of AWS regions. */
  knowsRegion(region: string): boolean {
    return [...this.byType.values()].some((o) => o.pricing[region] !== undefined);
  }

  /** Whether the type has an on-demand price in the region (so it can be launched there). */
  isPricedIn(instanceType: string, region: string): boolean {
    return this.byType.get(instanceType)?.pricing[region]?.onDemand !== undefined;
  }

  onDemandMicroPerHour(instanceType: string, region: string): MicroUsd {
    const usd = this.byType.get(instanceType)?.pricing[region]?.onDemand;
    if (usd === undefined) throw new UnknownInstanceTypeError(instanceType, region);
    return usdToMicro(usd);
  }

  /** The 1-year reserved effective rate, or the median-ratio stand-in when none is published. */
  reservedMicroPerHour(instanceType: string, region: string): MicroUsd {
    const published = this.byType.get(instanceType)?.pricing[region]?.reserved;
    if (published !== undefined) return usdToMicro(published);
    return Math.round(this.onDemandMicroPerHour(instanceType, region) * MEDIAN_RESERVED_RATIO);
  }
}

/** GPU model names are case-insensitive: people type "h100" for NVIDIA's H100. */
const sameGpuModel = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
