import { GetServiceQuotaCommand, type ServiceQuotasClient } from '@aws-sdk/client-service-quotas';
import type { InstanceFamily, QuotaMarket } from '../domain/admission/capacity';
import type { VcpuQuotaKey } from '../domain/admission/fleet-capacity';
import {
  type AccountQuotas,
  AccountQuotaUnavailableError,
  type QuotaUnavailableReason,
} from '../ports/account-quotas';

/**
 * Service Quotas' codes of EC2's vCPU quotas for GPU instances (service code
 * `ec2`): "Running On-Demand G and VT instances", "Running On-Demand P
 * instances", "All G and VT Spot Instance Requests", "All P Spot Instance Requests".
 */
export const EC2_SERVICE_CODE = 'ec2';
export const VCPU_QUOTA_CODES: Readonly<Record<InstanceFamily, Record<QuotaMarket, string>>> = {
  G: { 'on-demand': 'L-DB2E81BA', spot: 'L-3819A6DF' },
  P: { 'on-demand': 'L-417A185B', spot: 'L-7212CCBC' },
};

const REASONS: Readonly<Record<string, QuotaUnavailableReason>> = {
  NoSuchResourceException: 'not-found',
  AccessDeniedException: 'access-denied',
  TooManyRequestsException: 'throttled',
  ThrottlingException: 'throttled',
  ServiceException: 'unreachable',
};

/** The SDK's error of a request that got no answer (connection refused, timed out): it has no HTTP status. */
function answered(error: unknown): boolean {
  const metadata = (error as { $metadata?: { httpStatusCode?: number } }).$metadata;
  return metadata?.httpStatusCode !== undefined;
}

/**
 * GetServiceQuota in each GPU region (quotas are regional), through one
 * client per region; the SDK's retries absorb short throttling. What it still
 * cannot read is an AccountQuotaUnavailableError with the reason; an error
 * of the request itself (a malformed code) is a bug and propagates.
 */
export class ServiceQuotasAccountQuotas implements AccountQuotas {
  constructor(private readonly clientFor: (region: string) => ServiceQuotasClient) {}

  async vcpuQuota(quota: VcpuQuotaKey): Promise<number> {
    const quotaCode = VCPU_QUOTA_CODES[quota.family][quota.market];
    let value: number | undefined;
    try {
      const result = await this.clientFor(quota.region).send(
        new GetServiceQuotaCommand({ ServiceCode: EC2_SERVICE_CODE, QuotaCode: quotaCode }),
      );
      value = result.Quota?.Value;
    } catch (error) {
      const code = error instanceof Error ? error.name : undefined;
      const reason = (code && REASONS[code]) ?? (answered(error) ? undefined : 'unreachable');
      if (!reason) throw error;
      throw new AccountQuotaUnavailableError(quota, quotaCode, reason, code, { cause: error });
    }
    if (value === undefined) throw new AccountQuotaUnavailableError(quota, quotaCode, 'not-found', undefined);
    return Math.floor(value);
  }
}
