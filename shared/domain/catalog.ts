import { type MicroUsd, usdToMicro } from './money';

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

  constructor(offerings: readonly InstanceOffering[]) {
    this.byType = new Map(offerings.filter((o) => o.instanceType).map((o) => [o.instanceType, o]));
  }

  offering(instanceType: string): InstanceOffering | undefined {
    return this.byType.get(instanceType);
  }

  /** Whole-GPU, single-GPU types priced on-demand in the region, cheapest first. */
  singleGpuTypes(region: string): string[] {
    return [...this.byType.values()]
      .filter((o) => o.gpuCount === 1 && o.pricing[region]?.onDemand !== undefined)
      .sort((a, b) => (a.pricing[region]?.onDemand ?? 0) - (b.pricing[region]?.onDemand ?? 0))
      .map((o) => o.instanceType);
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
