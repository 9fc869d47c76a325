import { VCPU_QUOTA_CODES } from '../../../shared/adapters/service-quotas';
import { type VcpuQuotaKey, vcpuQuotaId } from '../../../shared/domain/admission/fleet-capacity';
import {
  type AccountQuotas,
  AccountQuotaUnavailableError,
  type QuotaUnavailableReason,
} from '../../../shared/ports/account-quotas';

/** Service Quotas in memory: the quotas a test sets; any other is `not-found`, and all of them fail while `down`. */
export class FakeAccountQuotas implements AccountQuotas {
  private readonly values = new Map<string, number>();
  /** When set, every read fails for this reason (Service Quotas unreachable, access denied, ...). */
  down: QuotaUnavailableReason | undefined;
  readonly asked: VcpuQuotaKey[] = [];

  set(quota: VcpuQuotaKey, vcpus: number): this {
    this.values.set(vcpuQuotaId(quota), vcpus);
    return this;
  }

  async vcpuQuota(quota: VcpuQuotaKey): Promise<number> {
    this.asked.push(quota);
    const value = this.values.get(vcpuQuotaId(quota));
    const code = VCPU_QUOTA_CODES[quota.family][quota.market];
    if (this.down) throw new AccountQuotaUnavailableError(quota, code, this.down, undefined);
    if (value === undefined) throw new AccountQuotaUnavailableError(quota, code, 'not-found', undefined);
    return value;
  }
}
