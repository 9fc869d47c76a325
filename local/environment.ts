import { createLocalResources } from './bootstrap';
import { type EmulatorEndpoints, emulatorEnvironment } from './emulators';
import { localSpotPricing } from './spot-discount';

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
    POWERTOOLS_SERVICE_NAME: 'gpurent',
    POWERTOOLS_METRICS_NAMESPACE: 'gpurent',
    POWERTOOLS_TRACE_ENABLED: 'false',
    POWERTOOLS_METRICS_DISABLED: 'true',
    POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL ?? 'WARN',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
}
