import { createLocalResources } from './bootstrap';
import { type EmulatorEndpoints, emulatorEnvironment } from './emulators';
import { localSpotPricing } from './spot-discount';

/** The quota of a tenant without one on the emulators (see DEFAULT_TENANT_QUOTA). */
export const LOCAL_DEFAULT_QUOTA = { maxGpus: 1000, maxHourlyUsd: 100_000 };

/**
 * Everything a function reads from its environment when it runs locally:
 * emulator endpoints, the names of freshly created resources, Powertools settings.
 */
export async function prepareFunctionEnvironment(
  endpoints: EmulatorEndpoints,
  region: string,
  prefix: string,
): Promise<Record<string, string>> {
  const spot = await localSpotPricing();
  return {
    ...emulatorEnvironment(endpoints, region),
    ...(await createLocalResources(endpoints, region, prefix)),
    SPOT_PRICE_SOURCE: 'catalog',
    SPOT_CATALOG_RATIO: String(spot.ratio),
    SPOT_PRICE_NOTE: spot.note,
    // The emulated fleet is unbounded: locally a tenant queues only under a quota an admin sets
    // (gpurent admin quota set), so everything that ran before admission runs as it did.
    DEFAULT_TENANT_QUOTA: JSON.stringify(LOCAL_DEFAULT_QUOTA),
    POWERTOOLS_SERVICE_NAME: 'gpurent',
    POWERTOOLS_METRICS_NAMESPACE: 'gpurent',
    POWERTOOLS_TRACE_ENABLED: 'false',
    POWERTOOLS_METRICS_DISABLED: 'true',
    POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL ?? 'WARN',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
}
