import type { VcpuCatalog } from '../../domain/admission/capacity';
import type { PoolLimit } from '../../domain/admission/claims';
import {
  type AccountVcpuQuota,
  changedLimits,
  fleetPoolLimits,
  vcpuQuotaId,
  vcpuQuotaKeys,
} from '../../domain/admission/fleet-capacity';
import { type AccountQuotas, AccountQuotaUnavailableError } from '../../ports/account-quotas';
import type { AdmissionStore } from '../../ports/admission-store';
import type { CommitmentRepository } from '../../ports/commitments';
import type { Compute } from '../../ports/compute';

export interface FleetCapacityDeps {
  readonly admission: Pick<AdmissionStore, 'pools' | 'claims' | 'putPoolLimit'>;
  readonly accountQuotas: AccountQuotas;
  /** The operator's quotas (ACCOUNT_VCPU_QUOTAS): each wins over Service Quotas for its region, family and market. */
  readonly quotaOverrides: readonly AccountVcpuQuota[];
  readonly commitments: Pick<CommitmentRepository, 'list'>;
  readonly compute: Pick<Compute, 'managedInstances'>;
  readonly catalog: VcpuCatalog;
  readonly regions: readonly string[];
  readonly now: () => number;
}

export interface FleetCapacityRefresh {
  /** The pools whose limit changed, as written. */
  readonly written: readonly PoolLimit[];
  /** Where each known quota came from. */
  readonly sources: Readonly<Record<'override' | 'service-quotas', number>>;
  /** Quotas nothing is known of now: their pools keep the limit last stored (none when never known). */
  readonly unavailable: readonly AccountQuotaUnavailableError[];
}

/**
 * Writes the limits of the capacity pools admission charges leases against:
 * the account's vCPU quotas per GPU region (the operator's override, else
 * Service Quotas) less what the fleet runs outside admission, and the
 * reserved commitments' slots (`fleetPoolLimits`). A quota that cannot be
 * read is not guessed: its pool keeps its stored limit, and without one the
 * pool is not limited (EC2 refuses, and its refusal queues the lease). The
 * scheduled admission pass admits what raised limits let in.
 */
export async function refreshFleetCapacity(deps: FleetCapacityDeps): Promise<FleetCapacityRefresh> {
  const nowMs = deps.now();
  const [read, commitments, claims, instances, stored] = await Promise.all([
    readQuotas(deps),
    deps.commitments.list(),
    deps.admission.claims(),
    deps.compute.managedInstances(),
    deps.admission.pools(),
  ]);
  const limits = fleetPoolLimits({
    quotas: read.quotas,
    commitments,
    claims,
    instances,
    stored,
    catalog: deps.catalog,
    nowMs,
  });
  const written = changedLimits(limits, stored);
  for (const limit of written) await deps.admission.putPoolLimit(limit);
  return {
    written,
    sources: { override: read.quotas.length - read.fromService, 'service-quotas': read.fromService },
    unavailable: read.unavailable,
  };
}

async function readQuotas(deps: FleetCapacityDeps) {
  const overridden = new Set(deps.quotaOverrides.map(vcpuQuotaId));
  const asked = vcpuQuotaKeys(deps.regions).filter((key) => !overridden.has(vcpuQuotaId(key)));
  const answers = await Promise.all(
    asked.map(async (key): Promise<AccountVcpuQuota | AccountQuotaUnavailableError> => {
      try {
        return { ...key, vcpus: await deps.accountQuotas.vcpuQuota(key) };
      } catch (error) {
        if (error instanceof AccountQuotaUnavailableError) return error;
        throw error;
      }
    }),
  );
  const fromService = answers.filter((answer) => !(answer instanceof AccountQuotaUnavailableError));
  return {
    quotas: [
      ...deps.quotaOverrides.filter((quota) => deps.regions.includes(quota.region)),
      ...(fromService as AccountVcpuQuota[]),
    ],
    fromService: fromService.length,
    unavailable: answers.filter((answer) => answer instanceof AccountQuotaUnavailableError),
  };
}
