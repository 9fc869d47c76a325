import { INSTANCE_FAMILIES } from '../shared/domain/admission/capacity';
import { type AccountVcpuQuota, QUOTA_MARKETS } from '../shared/domain/admission/fleet-capacity';
import { createLocalResources, LOCAL_GPU_REGIONS } from './bootstrap';
import { type EmulatorEndpoints, emulatorEnvironment } from './emulators';
import { localSpotPricing } from './spot-discount';

/** The quota of a tenant without one on the emulators (see DEFAULT_TENANT_QUOTA). */
export const LOCAL_DEFAULT_QUOTA = { maxGpus: 1000, maxHourlyUsd: 100_000 };

/** vCPUs of each local GPU region's G and P quotas (on-demand and spot): ample, like the default tenant quota. */
export const LOCAL_VCPU_QUOTA = 4096;

/**
 * The account's vCPU quotas on the emulators, which have none (moto serves no
 * EC2 quotas): `ACCOUNT_VCPU_QUOTAS` from the environment `npm start` runs in,
 * to try account-quota queuing, else LOCAL_VCPU_QUOTA for every pool.
 */
function localVcpuQuotas(): string {
  if (process.env.ACCOUNT_VCPU_QUOTAS) return process.env.ACCOUNT_VCPU_QUOTAS;
  const quotas: AccountVcpuQuota[] = LOCAL_GPU_REGIONS.flatMap((region) =>
    INSTANCE_FAMILIES.flatMap((family) =>
      QUOTA_MARKETS.map((market) => ({ region, family, market, vcpus: LOCAL_VCPU_QUOTA })),
    ),
  );
  return JSON.stringify(quotas);
}

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
    ACCOUNT_VCPU_QUOTAS: localVcpuQuotas(),
    POWERTOOLS_SERVICE_NAME: 'gpurent',
    POWERTOOLS_METRICS_NAMESPACE: 'gpurent',
    POWERTOOLS_TRACE_ENABLED: 'false',
    POWERTOOLS_METRICS_DISABLED: 'true',
    POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL ?? 'WARN',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
}
