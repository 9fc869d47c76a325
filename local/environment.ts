import {
  type AccountVcpuQuota,
  type VcpuQuotaKey,
  vcpuQuotaId,
  vcpuQuotaKeys,
} from '../shared/domain/admission/fleet-capacity';
import { MAX_REQUESTS_PER_SECOND, MAX_WAITING_LEASES_CAP } from '../shared/domain/tenant-limits';
import { createLocalResources, LOCAL_GPU_REGIONS } from './bootstrap';
import { type EmulatorEndpoints, emulatorEnvironment } from './emulators';
import { localPowertoolsEnv } from './runtime/powertools-env';
import { localSpotPricing } from './spot-discount';

/** The quota of a tenant without one on the emulators (see DEFAULT_TENANT_QUOTA). */
export const LOCAL_DEFAULT_QUOTA = { maxGpus: 1000, maxHourlyUsd: 100_000 };
/**
 * The limits of a tenant without its own on the emulators (see
 * DEFAULT_TENANT_LIMITS): as far as they go, so that, as with the quota, only
 * an admin's limits refuse locally; a test or a script hammering one local
 * tenant is no flood. In AWS the built-in defaults hold.
 */
export const LOCAL_DEFAULT_LIMITS = {
  requestsPerSecond: MAX_REQUESTS_PER_SECOND,
  maxWaitingLeases: MAX_WAITING_LEASES_CAP,
};

/** vCPUs of each local GPU region's G and P quotas (on-demand and spot): ample, like the default tenant quota. */
export const LOCAL_VCPU_QUOTA = 4096;

/**
 * The account's vCPU quotas on the emulators, which have none (moto serves no
 * EC2 quotas), so the capacity refresh never asks Service Quotas locally:
 * every pool has one, the `ACCOUNT_VCPU_QUOTAS` of the environment `npm start`
 * runs in where it names the pool (to try account-quota queuing), else
 * LOCAL_VCPU_QUOTA. A value that is no JSON list is passed on for the
 * function's own validation to name.
 */
function localVcpuQuotas(given = process.env.ACCOUNT_VCPU_QUOTAS ?? '[]'): string {
  let named: unknown;
  try {
    named = JSON.parse(given);
  } catch {
    return given;
  }
  if (!Array.isArray(named)) return given;
  const known = new Set((named as VcpuQuotaKey[]).map(vcpuQuotaId));
  const defaults: AccountVcpuQuota[] = vcpuQuotaKeys(LOCAL_GPU_REGIONS)
    .filter((quota) => !known.has(vcpuQuotaId(quota)))
    .map((quota) => ({ ...quota, vcpus: LOCAL_VCPU_QUOTA }));
  return JSON.stringify([...named, ...defaults]);
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
    DEFAULT_TENANT_LIMITS: JSON.stringify(LOCAL_DEFAULT_LIMITS),
    ACCOUNT_VCPU_QUOTAS: localVcpuQuotas(),
    ...localPowertoolsEnv(),
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
}
