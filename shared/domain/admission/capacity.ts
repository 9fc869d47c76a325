import type { InstanceOffering } from '../catalog';
import { type Commitment, committedGpus, isActive, usedGpus } from '../commitments';
import type { RentalMode } from '../lease';

/**
 * EC2 counts GPU instances against one vCPU quota per family and market:
 * "Running On-Demand G and VT instances" and "All G and VT Spot Instance
 * Requests" for G/VT types (g4dn, g5, gr6, vt1, ...), and the two P quotas for
 * p2 ... p6 types.
 */
export const INSTANCE_FAMILIES = ['G', 'P'] as const;
export type InstanceFamily = (typeof INSTANCE_FAMILIES)[number];
export type QuotaMarket = 'on-demand' | 'spot';

export class UnsupportedInstanceFamilyError extends Error {
  constructor(readonly instanceType: string) {
    super(`Instance type ${instanceType} belongs to neither the G/VT nor the P vCPU quota`);
    this.name = 'UnsupportedInstanceFamilyError';
  }
}

export function instanceFamily(instanceType: string): InstanceFamily {
  if (/^(g|gr|vt)\d/.test(instanceType)) return 'G';
  if (/^p\d/.test(instanceType)) return 'P';
  throw new UnsupportedInstanceFamilyError(instanceType);
}

/** One of the account's EC2 vCPU quotas in one region, and how much of it runs now. */
export interface VcpuQuota {
  readonly region: string;
  readonly family: InstanceFamily;
  readonly market: QuotaMarket;
  readonly limitVcpus: number;
  readonly usedVcpus: number;
}

/** Free instance slots of reserved commitments of one type in one zone. */
export interface ReservedSlots {
  readonly region: string;
  readonly zone: string;
  readonly instanceType: string;
  readonly freeInstances: number;
}

/**
 * The fleet capacity admission knows about. A region and family without a
 * quota entry is not limited here (nothing is known: EC2 answers, and its
 * VcpuLimitExceeded queues the lease). Reserved launches use commitment slots
 * only: AWS counted a capacity reservation against the on-demand quota when it
 * was made, so an instance started on it takes no more of that quota.
 */
export interface Capacity {
  readonly vcpuQuotas: readonly VcpuQuota[];
  readonly reservedSlots: readonly ReservedSlots[];
}

/** N instances of one type in one region and mode: what a lease would launch. */
export interface Launch {
  readonly region: string;
  readonly instanceType: string;
  readonly instances: number;
  readonly mode: RentalMode;
}

/** Why a launch does not fit: the account's EC2 quota, or the free slots of reserved commitments. */
export type CapacityShortfall = 'account-quota' | 'capacity';

/** vCPUs of an instance type; `PriceCatalog` is one. */
export interface VcpuCatalog {
  offering(instanceType: string): InstanceOffering | undefined;
}

export class UnknownVcpusError extends Error {
  constructor(readonly instanceType: string) {
    super(`The catalog does not say how many vCPUs ${instanceType} has`);
    this.name = 'UnknownVcpusError';
  }
}

export function vcpusOf(catalog: VcpuCatalog, instanceType: string): number {
  const vcpus = catalog.offering(instanceType)?.vcpu;
  if (vcpus === undefined) throw new UnknownVcpusError(instanceType);
  return vcpus;
}

const quotaKey = (region: string, family: InstanceFamily, market: QuotaMarket) =>
  `${region}#${family}#${market}`;
const slotsKey = (region: string, instanceType: string) => `${region}#${instanceType}`;

interface QuotaRoom {
  limit: number;
  used: number;
  /** Closed to later launches of this pass: a lease that waited long enough holds it (see admission-pass.ts). */
  held: boolean;
}

/** Where a launch would go: one quota, or the zone of reserved slots that has room. */
type Target = { kind: 'quota'; room: QuotaRoom } | { kind: 'slots'; zones: SlotsRoom[] } | { kind: 'open' };

interface SlotsRoom {
  readonly zone: string;
  free: number;
  held: boolean;
}

/**
 * A working copy of the capacity that launches and releases change, for one
 * admission pass or one simulated future. The inputs are never mutated.
 */
export class CapacityLedger {
  private readonly quotas = new Map<string, QuotaRoom>();
  private readonly slots = new Map<string, SlotsRoom[]>();
  /** Where each launch goes and its vCPUs, per launch object: a pass asks about the same candidates over and over. */
  private readonly resolved = new WeakMap<Launch, { readonly target: Target; readonly vcpus: number }>();

  constructor(
    capacity: Capacity,
    private readonly catalog: VcpuCatalog,
  ) {
    for (const q of capacity.vcpuQuotas) {
      this.quotas.set(quotaKey(q.region, q.family, q.market), {
        limit: q.limitVcpus,
        used: q.usedVcpus,
        held: false,
      });
    }
    for (const s of capacity.reservedSlots) {
      const zones = this.slots.get(slotsKey(s.region, s.instanceType)) ?? [];
      zones.push({ zone: s.zone, free: s.freeInstances, held: false });
      this.slots.set(slotsKey(s.region, s.instanceType), zones);
    }
  }

  /** Whether the launch fits now; the shortfall when it does not. */
  shortfall(launch: Launch): CapacityShortfall | null {
    const target = this.target(launch);
    switch (target.kind) {
      case 'open':
        return null;
      case 'quota':
        return !target.room.held && target.room.used + this.vcpus(launch) <= target.room.limit
          ? null
          : 'account-quota';
      case 'slots':
        return this.zoneFor(target.zones, launch.instances) ? null : 'capacity';
    }
  }

  /**
   * Whether the launch could fit once everything running ended: false when it
   * needs more vCPUs than the quota's limit. Reserved slots are taken as
   * able to (the free count does not say how many a commitment has).
   */
  couldEverFit(launch: Launch): boolean {
    const target = this.target(launch);
    return target.kind !== 'quota' || this.vcpus(launch) <= target.room.limit;
  }

  /** Takes the launch's capacity; the caller has checked `shortfall` (the zone chosen is returned). */
  take(launch: Launch): string | undefined {
    const target = this.target(launch);
    if (target.kind === 'quota') target.room.used += this.vcpus(launch);
    if (target.kind !== 'slots') return undefined;
    const zone = this.zoneFor(target.zones, launch.instances);
    if (zone) zone.free -= launch.instances;
    return zone?.zone;
  }

  /** Gives back what a finished launch held (in `zone`, for reserved slots). */
  release(launch: Launch, zone?: string): void {
    const target = this.target(launch);
    if (target.kind === 'quota') target.room.used = Math.max(0, target.room.used - this.vcpus(launch));
    if (target.kind !== 'slots') return;
    const room = target.zones.find((z) => z.zone === zone) ?? target.zones[0];
    if (room) room.free += launch.instances;
  }

  /** Closes what the launch needs to every later launch of this pass, until `reopen`. */
  hold(launch: Launch): void {
    const target = this.target(launch);
    if (target.kind === 'quota') target.room.held = true;
    if (target.kind === 'slots') for (const zone of target.zones) zone.held = true;
  }

  reopen(): void {
    for (const room of this.quotas.values()) room.held = false;
    for (const zones of this.slots.values()) for (const zone of zones) zone.held = false;
  }

  private zoneFor(zones: readonly SlotsRoom[], instances: number): SlotsRoom | undefined {
    return zones.find((zone) => !zone.held && zone.free >= instances);
  }

  private target(launch: Launch): Target {
    return this.resolve(launch).target;
  }

  private vcpus(launch: Launch): number {
    return this.resolve(launch).vcpus;
  }

  private resolve(launch: Launch): { readonly target: Target; readonly vcpus: number } {
    let known = this.resolved.get(launch);
    if (!known) {
      known = {
        target: this.targetOf(launch),
        vcpus: launch.instances * vcpusOf(this.catalog, launch.instanceType),
      };
      this.resolved.set(launch, known);
    }
    return known;
  }

  private targetOf(launch: Launch): Target {
    if (launch.mode === 'reserved') {
      return { kind: 'slots', zones: this.slots.get(slotsKey(launch.region, launch.instanceType)) ?? [] };
    }
    const market: QuotaMarket = launch.mode === 'spot' ? 'spot' : 'on-demand';
    const room = this.quotas.get(quotaKey(launch.region, instanceFamily(launch.instanceType), market));
    return room ? { kind: 'quota', room } : { kind: 'open' };
  }
}

/** Whether N instances of a type fit the account's quota (or a commitment's free slots) now. */
export function launchFits(capacity: Capacity, catalog: VcpuCatalog, launch: Launch): boolean {
  return new CapacityLedger(capacity, catalog).shortfall(launch) === null;
}

/** Free slots of the commitments active at `nowMs`, per zone and type (a partly used instance is not free). */
export function reservedSlotsOf(commitments: readonly Commitment[], nowMs: number): ReservedSlots[] {
  return commitments
    .filter((commitment) => isActive(commitment, nowMs))
    .map((commitment) => ({
      region: commitment.region,
      zone: commitment.zone,
      instanceType: commitment.instanceType,
      freeInstances: Math.floor(
        (committedGpus(commitment) - usedGpus(commitment)) / commitment.gpusPerInstance,
      ),
    }));
}
