import type { VcpuQuotaKey } from '../domain/admission/fleet-capacity';

/**
 * Why a quota could not be read: Service Quotas knows no such quota in the
 * region, the function may not read it, it kept throttling, or it did not
 * answer. Either way nothing is known, and admission keeps what it last stored.
 */
export type QuotaUnavailableReason = 'not-found' | 'access-denied' | 'throttled' | 'unreachable';

export class AccountQuotaUnavailableError extends Error {
  constructor(
    readonly quota: VcpuQuotaKey,
    readonly quotaCode: string,
    readonly reason: QuotaUnavailableReason,
    readonly code: string | undefined,
    options?: ErrorOptions,
  ) {
    super(
      `The ${quota.market} ${quota.family} vCPU quota (${quotaCode}) of ${quota.region} is unavailable: ${reason}${code ? ` (${code})` : ''}`,
      options,
    );
    this.name = 'AccountQuotaUnavailableError';
  }
}

/** The account's EC2 vCPU quotas for GPU instances, per region. */
export interface AccountQuotas {
  /** The quota's value in vCPUs; AccountQuotaUnavailableError when it cannot be read. */
  vcpuQuota(quota: VcpuQuotaKey): Promise<number>;
}
