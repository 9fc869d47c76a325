import type {
  LeaseExpiryScheduler,
  TenantSettings,
  TenantSettingsRepository,
} from '../../../shared/ports/lease-expiry';
import { Faults } from './faults';

/** One-time schedules as SchedulerLeaseExpiry treats them: arming twice keeps the first, cancelling none is fine. */
export class FakeLeaseExpiryScheduler implements LeaseExpiryScheduler {
  readonly faults = new Faults<keyof LeaseExpiryScheduler>();
  readonly armed = new Map<string, { tenantId: string; atMs: number }>();

  async schedule(tenantId: string, leaseId: string, atMs: number): Promise<void> {
    this.faults.enter('schedule', [tenantId, leaseId, atMs]);
    if (!this.armed.has(leaseId)) this.armed.set(leaseId, { tenantId, atMs });
  }

  async cancel(leaseId: string): Promise<void> {
    this.faults.enter('cancel', [leaseId]);
    this.armed.delete(leaseId);
  }
}

export class FakeTenantSettings implements TenantSettingsRepository {
  private readonly settings = new Map<string, TenantSettings>();

  async get(tenantId: string): Promise<TenantSettings> {
    return { ...this.settings.get(tenantId) };
  }

  async put(tenantId: string, settings: TenantSettings): Promise<void> {
    this.settings.set(tenantId, { ...settings });
  }
}
