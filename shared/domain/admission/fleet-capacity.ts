import type { Commitment } from '../commitments';
import { isActive } from '../commitments';
import type { RentalMode } from '../lease';
import {
  INSTANCE_FAMILIES,
  type InstanceFamily,
  instanceFamily,
  type QuotaMarket,
  type VcpuCatalog,
  vcpusOf,
} from './capacity';
import { type AdmissionClaim, type CapacityPool, type PoolIdentity, type PoolLimit, poolKey } from './claims';

/** How often the pools' limits are refreshed (the capacity-refresh schedule, in AWS and locally). */
export const CAPACITY_REFRESH_MINUTES = 5;

export const QUOTA_MARKETS = ['on-demand', 'spot'] as const satisfies readonly QuotaMarket[];

/** One of the account's EC2 vCPU quotas in one region, as Service Quotas or the operator states it. */
export interface AccountVcpuQuota {
  readonly region: string;
  readonly family: InstanceFamily;
  readonly market: QuotaMarket;
  readonly vcpus: number;
}

export type VcpuQuotaKey = Omit<AccountVcpuQuota, 'vcpus'>;

/** One text per quota: its region, family and market. */
export const vcpuQuotaId = (quota: VcpuQuotaKey) => `${quota.region}#${quota.family}#${quota.market}`;

/** Every vCPU quota of the GPU regions admission can know: each region × {G, P} × {on-demand, spot}. */
export function vcpuQuotaKeys(regions: readonly string[]): VcpuQuotaKey[] {
  return regions.flatMap((region) =>
    INSTANCE_FAMILIES.flatMap((family) => QUOTA_MARKETS.map((market) => ({ region, family, market }))),
  );
}

/** A live instance of the fleet as the refresh weighs it (a `ComputeInstance` is one). */
export interface FleetInstance {
  readonly region: string;
  readonly instanceType: string;
  readonly mode: RentalMode;
  readonly state?: string | undefined;
  readonly leaseId?: string | undefined;
}

/** EC2 counts running (and starting) instances against the "Running ..." and spot quotas; stopped ones not. */
const QUOTA_STATES: ReadonlySet<string | undefined> = new Set(['pending', 'running']);

export interface FleetCapacityInput {
  /** The quotas known now (an operator's override wins over Service Quotas); others keep their stored limit. */
  readonly quotas: readonly AccountVcpuQuota[];
  readonly commitments: readonly Commitment[];
  /** What admission has handed out: each admitted lease's claim. */
  readonly claims: readonly Pick<AdmissionClaim, 'leaseId' | 'pool'>[];
  /** The fleet's live instances (warm machines included). */
  readonly instances: readonly FleetInstance[];
  readonly stored: readonly CapacityPool[];
  readonly catalog: VcpuCatalog;
  readonly nowMs: number;
}

/**
 * The limits of the pools admission charges, so that what EC2 counts is
 * counted once. A pool's `used` already holds what admission admitted; the
 * limit is what is left of the quota for that:
 *
 * - vCPU pools: the quota, less the vCPUs of live on-demand and spot
 *   instances no admission claim covers (warm machines while they boot,
 *   leases admitted before the pool existed), and for on-demand less the part
 *   of capacity reservations no claim on that pool covers (EC2 counts a
 *   reservation whole against the on-demand quota, used or not; a lease
 *   admitted against the pool and placed onto the reservation is in `used`).
 * - Slots pools: the instances of the active commitments of one type in one
 *   zone, less the instances their holders hold without a claim on the pool.
 *
 * A quota not known now yields no limit (the stored one stays); a slots pool
 * whose commitments all ended gets 0.
 */
export function fleetPoolLimits(input: FleetCapacityInput): PoolLimit[] {
  const charged = new Map(
    input.claims.flatMap((claim) => (claim.pool ? [[claim.leaseId, claim.pool.key]] : [])),
  );
  const active = input.commitments.filter((commitment) => isActive(commitment, input.nowMs));
  const taken = new Map<string, number>();
  const take = (key: string, units: number) => taken.set(key, (taken.get(key) ?? 0) + units);

  for (const instance of input.instances) {
    if (instance.mode === 'reserved' || !QUOTA_STATES.has(instance.state)) continue;
    if (instance.leaseId !== undefined && charged.has(instance.leaseId)) continue;
    take(
      vcpuKeyOf(instance.region, instance.instanceType, instance.mode),
      vcpusOf(input.catalog, instance.instanceType),
    );
  }
  for (const commitment of active) {
    if (commitment.capacityReservationId === undefined) continue;
    const key = vcpuKeyOf(commitment.region, commitment.instanceType, 'on-demand');
    take(
      key,
      instancesLeft(commitment, (pool) => pool === key) * vcpusOf(input.catalog, commitment.instanceType),
    );
  }

  const vcpuLimits: PoolLimit[] = input.quotas.map(({ vcpus, ...quota }) => {
    const identity: PoolIdentity = { kind: 'vcpu', ...quota };
    return { ...identity, limit: Math.max(0, vcpus - (taken.get(poolKey(identity)) ?? 0)) };
  });

  const slots = new Map<string, PoolLimit>();
  for (const pool of input.stored)
    if (pool.kind === 'slots') slots.set(poolKey(pool), { ...slotsIdentity(pool), limit: 0 });
  for (const commitment of active) {
    const identity = slotsIdentity(commitment);
    const key = poolKey(identity);
    const free = instancesLeft(commitment, (pool) => pool !== key);
    slots.set(key, { ...identity, limit: (slots.get(key)?.limit ?? 0) + free });
  }
  return [...vcpuLimits, ...slots.values()];

  /**
   * The commitment's instances less those of the holders whose charge (the
   * pool key of their claim, if any) `counted` picks; a holder counts whole
   * instances, as admission charges a lease.
   */
  function instancesLeft(commitment: Commitment, counted: (pool: string | undefined) => boolean): number {
    let left = commitment.count;
    for (const [leaseId, holder] of Object.entries(commitment.holders)) {
      if (counted(charged.get(leaseId))) left -= Math.ceil(holder.gpus / commitment.gpusPerInstance);
    }
    return Math.max(0, left);
  }
}

/** The limits that differ from what is stored (a rewrite of the same limit would only make passes retry). */
export function changedLimits(limits: readonly PoolLimit[], stored: readonly CapacityPool[]): PoolLimit[] {
  const before = new Map(stored.map((pool) => [poolKey(pool), pool.limit]));
  return limits.filter((limit) => before.get(poolKey(limit)) !== limit.limit);
}

function vcpuKeyOf(region: string, instanceType: string, mode: RentalMode): string {
  const market: QuotaMarket = mode === 'spot' ? 'spot' : 'on-demand';
  return poolKey({ kind: 'vcpu', region, family: instanceFamily(instanceType), market });
}

const slotsIdentity = (of: { region: string; zone: string; instanceType: string }): PoolIdentity => ({
  kind: 'slots',
  region: of.region,
  zone: of.zone,
  instanceType: of.instanceType,
});
