import type { RentalMode } from '../lease';
import type { MicroUsd } from '../money';
import type { Launch } from './capacity';
import { type Quota, quotaOf } from './quota';

/** What a tenant runs now, as its quota counts it. */
export interface TenantUsage {
  readonly gpus: number;
  /** Sum of the hourly prices of the tenant's running instances. */
  readonly hourlyMicroUsd: MicroUsd;
  readonly gpusByMode: Readonly<Partial<Record<RentalMode, number>>>;
}

export const NO_USAGE: TenantUsage = { gpus: 0, hourlyMicroUsd: 0, gpusByMode: {} };

/** One way to start a lease: the launch and what all its instances cost per hour together. */
export interface LaunchCandidate extends Launch {
  readonly hourlyMicroUsd: MicroUsd;
}

interface Room {
  gpus: number;
  hourlyMicroUsd: number;
  gpusByMode: Partial<Record<RentalMode, number>>;
  held: boolean;
}

/**
 * Tenants' use against their quotas, as one admission pass or one simulated
 * future changes it. The inputs are never mutated.
 */
export class TenantLedger {
  private readonly rooms = new Map<string, Room>();

  constructor(
    private readonly usage: Readonly<Record<string, TenantUsage>>,
    private readonly quotas: Readonly<Record<string, Quota>>,
    private readonly defaultQuota: Quota,
  ) {}

  quota(tenantId: string): Quota {
    return quotaOf(this.quotas, tenantId, this.defaultQuota);
  }

  gpus(tenantId: string): number {
    return this.room(tenantId).gpus;
  }

  /**
   * The tenant's weighted share of GPUs in use: GPUs over weight. Divided by
   * the fleet's GPUs it is the weighted dominant share (GPUs are the one
   * resource counted: within a family vCPUs and memory follow the GPUs), and
   * ordering by it is the same without the division.
   */
  weightedGpus(tenantId: string): number {
    return this.room(tenantId).gpus / this.quota(tenantId).weight;
  }

  /** Whether the tenant's quota takes `gpus` more GPUs on this candidate now. */
  fits(tenantId: string, gpus: number, candidate: LaunchCandidate): boolean {
    const room = this.room(tenantId);
    const quota = this.quota(tenantId);
    const modeCap = quota.maxGpusByMode[candidate.mode];
    return (
      !room.held &&
      room.gpus + gpus <= quota.maxGpus &&
      room.hourlyMicroUsd + candidate.hourlyMicroUsd <= quota.maxHourlyMicroUsd &&
      (modeCap === undefined || (room.gpusByMode[candidate.mode] ?? 0) + gpus <= modeCap)
    );
  }

  /** Whether the quota could take the lease at all, with nothing of the tenant running. */
  couldEverFit(tenantId: string, gpus: number, candidate: LaunchCandidate): boolean {
    const quota = this.quota(tenantId);
    return (
      gpus <= quota.maxGpus &&
      candidate.hourlyMicroUsd <= quota.maxHourlyMicroUsd &&
      gpus <= (quota.maxGpusByMode[candidate.mode] ?? gpus)
    );
  }

  take(tenantId: string, gpus: number, candidate: LaunchCandidate): void {
    this.add(tenantId, gpus, candidate, 1);
  }

  release(tenantId: string, gpus: number, candidate: LaunchCandidate): void {
    this.add(tenantId, gpus, candidate, -1);
  }

  /** Closes the tenant's quota to its later leases in this pass, until `reopen`. */
  hold(tenantId: string): void {
    this.room(tenantId).held = true;
  }

  reopen(): void {
    for (const room of this.rooms.values()) room.held = false;
  }

  private add(tenantId: string, gpus: number, candidate: LaunchCandidate, sign: 1 | -1): void {
    const room = this.room(tenantId);
    room.gpus = Math.max(0, room.gpus + sign * gpus);
    room.hourlyMicroUsd = Math.max(0, room.hourlyMicroUsd + sign * candidate.hourlyMicroUsd);
    room.gpusByMode[candidate.mode] = Math.max(0, (room.gpusByMode[candidate.mode] ?? 0) + sign * gpus);
  }

  private room(tenantId: string): Room {
    let room = this.rooms.get(tenantId);
    if (!room) {
      const used = this.usage[tenantId] ?? NO_USAGE;
      room = {
        gpus: used.gpus,
        hourlyMicroUsd: used.hourlyMicroUsd,
        gpusByMode: { ...used.gpusByMode },
        held: false,
      };
      this.rooms.set(tenantId, room);
    }
    return room;
  }
}
