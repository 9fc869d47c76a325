/** One-time schedules that release a lease when its time is up (EventBridge Scheduler in AWS). */
export interface LeaseExpiryScheduler {
  /** Arms the lease's expiry; arming one that exists already changes nothing. */
  schedule(tenantId: string, leaseId: string, atMs: number): Promise<void>;
  /** Removes the lease's expiry; removing one that does not exist (or fired) is fine. */
  cancel(leaseId: string): Promise<void>;
}

/** Per-tenant settings the tenant manages through the API. */
export interface TenantSettings {
  /** Lifetime given to leases that do not ask for one; absent: they run until released. */
  readonly defaultLeaseDurationMinutes?: number | undefined;
}

export interface TenantSettingsRepository {
  get(tenantId: string): Promise<TenantSettings>;
  put(tenantId: string, settings: TenantSettings): Promise<void>;
}
