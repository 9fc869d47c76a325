import type { RentalMode, Workload } from '../lease';
import type { MicroUsd } from '../money';
import type { AdmittedLease, WaitingLease } from './admission-pass';
import {
  type Capacity,
  type InstanceFamily,
  instanceFamily,
  type QuotaMarket,
  type VcpuCatalog,
  vcpusOf,
} from './capacity';
import type { Quota } from './quota';
import type { LaunchCandidate, TenantUsage } from './tenant-ledger';
import type { RunningLease } from './wait-estimate';

/**
 * A pool of fleet capacity as admission stores it: an account vCPU quota
 * (units are vCPUs) or one zone's reserved slots of a type (units are
 * instances). `used` counts what admission handed out.
 */
export type PoolIdentity =
  | {
      readonly kind: 'vcpu';
      readonly region: string;
      readonly family: InstanceFamily;
      readonly market: QuotaMarket;
    }
  | { readonly kind: 'slots'; readonly region: string; readonly zone: string; readonly instanceType: string };

export type CapacityPool = PoolIdentity & { readonly limit: number; readonly used: number };

export function poolKey(pool: PoolIdentity): string {
  return pool.kind === 'vcpu'
    ? `VCPU#${pool.region}#${pool.family}#${pool.market}`
    : `SLOTS#${pool.region}#${pool.zone}#${pool.instanceType}`;
}

/** The capacity the pure pass reads, from the stored pools. */
export function capacityOfPools(pools: readonly CapacityPool[]): Capacity {
  const capacity: {
    vcpuQuotas: Capacity['vcpuQuotas'][number][];
    reservedSlots: Capacity['reservedSlots'][number][];
  } = { vcpuQuotas: [], reservedSlots: [] };
  for (const pool of pools) {
    if (pool.kind === 'vcpu') {
      capacity.vcpuQuotas.push({
        region: pool.region,
        family: pool.family,
        market: pool.market,
        limitVcpus: pool.limit,
        usedVcpus: pool.used,
      });
    } else {
      capacity.reservedSlots.push({
        region: pool.region,
        zone: pool.zone,
        instanceType: pool.instanceType,
        freeInstances: Math.max(0, pool.limit - pool.used),
      });
    }
  }
  return capacity;
}

/** What one admission adds to its tenant's use and to one capacity pool; a release gives back exactly this. */
export interface AdmissionClaim {
  readonly leaseId: string;
  readonly tenantId: string;
  /** Its workload: how long it held what it was given is recorded under its tenant and workload. */
  readonly workload: Workload;
  readonly gpus: number;
  readonly hourlyMicroUsd: MicroUsd;
  readonly mode: RentalMode;
  readonly launch: LaunchCandidate;
  readonly zone?: string | undefined;
  /** The pool it takes from, when admission knows one for it (else EC2 is the judge). */
  readonly pool?: { readonly key: string; readonly units: number } | undefined;
  /** When the pass admitted it: its start, for the wait estimates of the leases behind it. */
  readonly admittedAtMs?: number | undefined;
  /** When it joined the queue: what it waited is `admittedAtMs - queuedAtMs`. */
  readonly queuedAtMs: number;
}

/** The claim of an admitted lease on the pools known now (the pool the pure pass charged it to). */
export function claimOf(
  admitted: AdmittedLease,
  pools: ReadonlySet<string>,
  catalog: VcpuCatalog,
): AdmissionClaim {
  const { lease, launch, zone } = admitted;
  const key =
    launch.mode === 'reserved'
      ? zone === undefined
        ? undefined
        : poolKey({ kind: 'slots', region: launch.region, zone, instanceType: launch.instanceType })
      : poolKey({
          kind: 'vcpu',
          region: launch.region,
          family: instanceFamily(launch.instanceType),
          market: launch.mode === 'spot' ? 'spot' : 'on-demand',
        });
  const units =
    launch.mode === 'reserved' ? launch.instances : launch.instances * vcpusOf(catalog, launch.instanceType);
  return {
    leaseId: lease.leaseId,
    tenantId: lease.tenantId,
    workload: lease.workload,
    gpus: lease.gpus,
    hourlyMicroUsd: launch.hourlyMicroUsd,
    mode: launch.mode,
    launch,
    zone,
    pool: key !== undefined && pools.has(key) ? { key, units } : undefined,
    queuedAtMs: lease.queuedAtMs,
  };
}

/** A tenant's use and, when an admin set one, its own quota (`quotaVersion` counts the changes). */
export interface TenantAdmission {
  readonly tenantId: string;
  readonly usage: TenantUsage;
  readonly quota?: Quota | undefined;
  readonly quotaVersion?: number | undefined;
}

/** An admitted lease as a wait estimate sees it: what it holds since its admission, and its known ends. */
export const runningOf = (lease: WaitingLease, claim: AdmissionClaim): RunningLease => ({
  leaseId: lease.leaseId,
  tenantId: lease.tenantId,
  workload: lease.workload,
  gpus: claim.gpus,
  launch: claim.launch,
  zone: claim.zone,
  startedAtMs: claim.admittedAtMs ?? lease.queuedAtMs,
  expiresAtMs: lease.expiresAtMs,
  maxRuntimeMinutes: lease.maxRuntimeMinutes,
});
