import type { TenantLimits } from '../domain/tenant-limits';

/** Limits an admin set per tenant; undefined when none was set (the defaults apply). */
export interface TenantLimitsRepository {
  get(tenantId: string): Promise<TenantLimits | undefined>;
  put(tenantId: string, limits: TenantLimits): Promise<void>;
}

/** Counts a tenant's API requests per one-second window, across every API instance. */
export interface RequestCounter {
  /**
   * Counts one request in the tenant's window `second` unless it holds `limit`
   * already: true when counted (the request may go on), false when refused.
   */
  take(tenantId: string, second: number, limit: number): Promise<boolean>;
}
