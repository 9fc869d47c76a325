import { DEFAULT_TENANT_LIMITS, rateWindowOf, type TenantLimits } from '../domain/tenant-limits';
import { RateLimitedError } from '../limit-errors';
import type { RequestCounter, TenantLimitsRepository } from '../ports/tenant-limits';

export interface TenantLimitsView {
  readonly tenantId: string;
  readonly limits: TenantLimits;
  /** True when no admin set limits for the tenant: the defaults apply. */
  readonly isDefault: boolean;
}

export async function tenantLimits(
  deps: {
    readonly limits: TenantLimitsRepository;
    /** The deployment's default (DEFAULT_TENANT_LIMITS), else the built-in one. */
    readonly defaultLimits?: TenantLimits;
  },
  tenantId: string,
): Promise<TenantLimitsView> {
  const own = await deps.limits.get(tenantId);
  return {
    tenantId,
    limits: own ?? deps.defaultLimits ?? DEFAULT_TENANT_LIMITS,
    isDefault: own === undefined,
  };
}

export async function setTenantLimits(
  deps: { readonly limits: TenantLimitsRepository },
  tenantId: string,
  limits: TenantLimits,
): Promise<TenantLimitsView> {
  await deps.limits.put(tenantId, limits);
  return { tenantId, limits, isDefault: false };
}

/** How long an API instance keeps a tenant's limits: an admin's change holds everywhere within it. */
export const LIMITS_CACHE_MS = 60_000;

/**
 * A tenant's limits as one API instance knows them, read at most once a
 * minute per tenant, so that the rate limit costs one call per request (the
 * counter's), not two.
 */
export function limitsCache(
  deps: {
    readonly limits: TenantLimitsRepository;
    readonly defaultLimits?: TenantLimits;
    readonly now: () => number;
  },
  ttlMs = LIMITS_CACHE_MS,
) {
  const known = new Map<string, { readonly limits: TenantLimits; readonly atMs: number }>();
  return {
    async get(tenantId: string): Promise<TenantLimits> {
      const cached = known.get(tenantId);
      if (cached && deps.now() - cached.atMs < ttlMs) return cached.limits;
      const { limits } = await tenantLimits(deps, tenantId);
      known.set(tenantId, { limits, atMs: deps.now() });
      return limits;
    },
    /** This instance's copy of a tenant's limits, after an admin set them here. */
    forget(tenantId: string): void {
      known.delete(tenantId);
    },
  };
}

/**
 * The seconds one API instance already found full, by tenant: the rest of a
 * flood's requests in that second are refused without a write, so a flood
 * costs the table one refused write a second per instance, not one a request.
 */
export type FullSeconds = Map<string, number>;

/**
 * Counts one API request of the tenant in the current second, or refuses it
 * (RATE_LIMITED, 429, with when to retry) when the second already holds its
 * `requestsPerSecond`. One conditional write, none when this instance saw the
 * second full already; nothing else of the request runs when refused.
 */
export async function admitRequest(
  deps: { readonly requests: RequestCounter; readonly now: () => number; readonly full?: FullSeconds },
  tenantId: string,
  limits: Pick<TenantLimits, 'requestsPerSecond'>,
): Promise<void> {
  const window = rateWindowOf(deps.now());
  const refused = () => new RateLimitedError(tenantId, limits.requestsPerSecond, window.retryAfterSeconds);
  if (deps.full?.get(tenantId) === window.second) throw refused();
  if (!(await deps.requests.take(tenantId, window.second, limits.requestsPerSecond))) {
    deps.full?.set(tenantId, window.second);
    throw refused();
  }
}
