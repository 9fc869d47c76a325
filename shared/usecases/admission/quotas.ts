import type { Quota } from '../../domain/admission/quota';
import { NO_USAGE, type TenantUsage } from '../../domain/admission/tenant-ledger';
import type { AdmissionStore } from '../../ports/admission-store';
import { type AdmissionControl, admitQueued } from './queue';

export interface QuotaDeps {
  readonly admission: AdmissionStore;
  readonly defaultQuota: Quota;
}

/** A tenant's quota in force (its own, else the default) and what it runs now against it. */
export interface TenantQuota {
  readonly tenantId: string;
  readonly quota: Quota;
  /** True when no admin set one for the tenant: the configured default applies. */
  readonly isDefault: boolean;
  readonly usage: TenantUsage;
}

export async function tenantQuota(deps: QuotaDeps, tenantId: string): Promise<TenantQuota> {
  const stored = await deps.admission.tenant(tenantId);
  return {
    tenantId,
    quota: stored?.quota ?? deps.defaultQuota,
    isDefault: stored?.quota === undefined,
    usage: stored?.usage ?? NO_USAGE,
  };
}

/** Stores the tenant's own quota, then runs a pass: a raised quota may let waiting leases in. */
export async function setTenantQuota(
  deps: AdmissionControl,
  tenantId: string,
  quota: Quota,
): Promise<TenantQuota> {
  await deps.admission.putQuota(tenantId, quota);
  await admitQueued(deps);
  return tenantQuota(deps, tenantId);
}
