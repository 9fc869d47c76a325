import { join } from 'node:path';
import { loadSpotTraces, readJson } from '../shared/adapters/spot-trace-files';
import { type InstanceOffering, PriceCatalog } from '../shared/domain/catalog';
import { SIGNAL_WINDOW_MS } from '../shared/domain/deadlines/pool-signals';
import { DEFAULT_PLACEMENT_COSTS } from '../shared/domain/placement-costs';
import type { DeadlineMarket } from '../shared/planning/deadlines/market';
import type { SpotTraces } from '../shared/planning/spot-market';
import * as z from '../shared/zod';
import { requirePricedZones } from './priced-zones';

export const CATALOG_FILE = join('aws-gpu-prices', 'catalog.json');

const catalogFile = z.looseObject({
  instances: z.array(
    // Some rows of the public data name no type; the catalog skips them.
    z.looseObject({
      instanceType: z.optional(z.string()),
      gpuCount: z.optional(z.number()),
      pricing: z._default(
        z.record(
          z.string(),
          z.looseObject({ onDemand: z.optional(z.number()), reserved: z.optional(z.number()) }),
        ),
        {},
      ),
    }),
  ),
});

export interface DeadlineData {
  readonly traces: SpotTraces;
  readonly catalog: PriceCatalog;
  /** Where the catalog was read, named when it lacks a price the replay needs. */
  readonly catalogPath: string;
}

/** The V100 spot traces and the price catalog of a folder laid out like ../shared/data. */
export async function loadDeadlineData(dataDir: string): Promise<DeadlineData> {
  const catalogPath = join(dataDir, CATALOG_FILE);
  const file = await readJson(catalogPath, catalogFile);
  const catalog = new PriceCatalog(file.instances as unknown as InstanceOffering[]);
  return { traces: await loadSpotTraces(dataDir), catalog, catalogPath };
}

/**
 * The replay world of some of the traces' zones: their spot history, the
 * catalog's on-demand price of the traced type in each of their regions,
 * AWS's public inter-region transfer rates, and the signal window the live
 * control plane reads pools' records over (`SIGNAL_WINDOW_MS`), so that the
 * replay's policy sees what the Lambdas' would.
 */
export function deadlineMarket(data: DeadlineData, zones: readonly string[]): DeadlineMarket {
  const chosen = data.traces.zones.filter((zone) => zones.includes(zone.zone));
  const { instanceType } = data.traces;
  requirePricedZones(
    chosen,
    data.catalog,
    instanceType,
    data.catalogPath,
    'add it to the catalog, or choose other zones with --zones',
  );
  const regions = [...new Set(chosen.map((zone) => zone.region))];
  return {
    tickMs: data.traces.tickMs,
    ticks: data.traces.ticks,
    zones: chosen,
    onDemand: regions.map((region) => ({
      region,
      priceMicroUsdPerHour: data.catalog.onDemandMicroPerHour(instanceType, region),
    })),
    transferCosts: DEFAULT_PLACEMENT_COSTS,
    signalWindowTicks: Math.round(SIGNAL_WINDOW_MS / data.traces.tickMs),
  };
}
