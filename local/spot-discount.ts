import { DEFAULT_DATA_DIR } from '../shared/adapters/reference-data';
import { loadSpotTraces } from '../shared/adapters/spot-trace-files';
import { priceCatalog } from '../shared/catalog';

export interface LocalSpotPricing {
  /** Spot price as a share of on-demand. */
  readonly ratio: number;
  /** What the ratio is, for every place a local spot price is shown. */
  readonly note: string;
}

/**
 * moto's spot price is a placeholder ($0.00001/h), so locally spot is priced
 * from the catalog: on-demand × the median ratio of the real V100 spot prices
 * (9 zones, 45 days of `p3.2xlarge` in ../shared/data) to the same type's
 * on-demand price in each zone's region.
 */
export async function localSpotPricing(dataDir = DEFAULT_DATA_DIR): Promise<LocalSpotPricing> {
  const traces = await loadSpotTraces(dataDir);
  const ratios: number[] = [];
  for (const zone of traces.zones) {
    const onDemand = priceCatalog.onDemandMicroPerHour(traces.instanceType, zone.region);
    for (const price of zone.priceMicroUsdPerHour) ratios.push(price / onDemand);
  }
  ratios.sort((a, b) => a - b);
  const ratio = Math.round((ratios[Math.floor(ratios.length / 2)] ?? 1) * 1000) / 1000;
  return {
    ratio,
    note: `local: spot = catalog on-demand × ${ratio}, the median ratio of the real V100 spot traces (${traces.zones.length} zones, ../shared/data), because the EC2 emulator's spot price is a placeholder`,
  };
}
