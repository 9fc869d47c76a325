import { describe, expect, it } from 'vitest';
import { MAX_WAIT_MINUTES } from '../../../shared/domain/admission/quota';
import type { Lease } from '../../../shared/domain/lease';
import { leaseIdFloor, newLeaseId } from '../../../shared/ids';
import type { LeaseDayUsage } from '../../../shared/ports/budgets';
import { leasesInRange } from '../../../shared/usecases/leases-in-range';
import { FakeLeaseRepository } from '../../support/fakes/lease-repository';

const DAY = 86_400_000;
const NOV = Date.parse('2026-11-01T00:00:00Z');
const DEC = Date.parse('2026-12-01T00:00:00Z');
const TENANT = 'tenant-h';

function lease(createdAtMs: number, tenantId = TENANT): Lease {
  return {
    tenantId,
    leaseId: newLeaseId(createdAtMs),
    workload: 'training',
    gpus: 1,
    instanceType: 'g5.xlarge',
    status: 'RELEASED',
    createdAtMs,
    updatedAtMs: createdAtMs,
  };
}

/** The daily per-lease rollups metering wrote: which lease was charged on which day. */
const rollups = (charges: readonly (readonly [string, string])[]) => ({
  calls: [] as [string, string][],
  async leaseDailyUsage(_tenantId: string, fromDay: string, toDay: string): Promise<LeaseDayUsage[]> {
    this.calls.push([fromDay, toDay]);
    return charges
      .filter(([day]) => day >= fromDay && day <= toDay)
      .map(([day, leaseId]) => ({ day, leaseId, seconds: 60, microUsd: 1 }));
  },
});

describe('leasesInRange', () => {
  it("reads the range's leases by key and range, never the tenant's whole history", async () => {
    const leases = new FakeLeaseRepository();
    const ancient = lease(NOV - 300 * DAY);
    const longRunner = lease(NOV - 90 * DAY);
    const waitedIntoRange = lease(NOV - 2 * DAY);
    const inRange = lease(NOV + 5 * DAY);
    const after = lease(DEC + DAY);
    const otherTenant = lease(NOV + 6 * DAY, 'tenant-other');
    for (const l of [ancient, longRunner, waitedIntoRange, inRange, after, otherTenant])
      await leases.create(l);
    const spend = rollups([
      ['2026-11-03', longRunner.leaseId],
      ['2026-11-04', longRunner.leaseId],
      ['2026-11-06', inRange.leaseId],
      ['2026-12-01', after.leaseId],
    ]);

    const found = await leasesInRange({ leases, spend }, TENANT, NOV, DEC);

    expect(found.map((l) => l.leaseId)).toEqual(
      [inRange, waitedIntoRange, longRunner].map((l) => l.leaseId), // newest first, as the listing was
    );
    expect(leases.faults.callsOf('list')).toEqual([]);
    expect(leases.faults.callsOf('listCreatedBetween')).toEqual([
      [TENANT, NOV - MAX_WAIT_MINUTES * 60_000, DEC],
    ]);
    // Only the lease created before the window that ran in the range is read by key, once.
    expect(leases.faults.callsOf('get')).toEqual([[TENANT, longRunner.leaseId]]);
    expect(spend.calls).toEqual([['2026-11-01', '2026-11-30']]);
  });

  it("leaves out a lease the last day's rollups name that was created after the range", async () => {
    const leases = new FakeLeaseRepository();
    const later = lease(NOV + 10 * DAY + 3_600_000);
    await leases.create(later);
    const spend = rollups([['2026-11-11', later.leaseId]]);
    expect(await leasesInRange({ leases, spend }, TENANT, NOV, NOV + 10 * DAY + 60_000)).toEqual([]);
  });
});

describe('leaseIdFloor', () => {
  it('bounds the ids of the leases created from an instant on', () => {
    const at = Date.parse('2026-11-05T12:00:00Z');
    expect(leaseIdFloor(at) <= newLeaseId(at)).toBe(true);
    expect(newLeaseId(at - 1) < leaseIdFloor(at)).toBe(true);
    expect(newLeaseId(at + 1) > leaseIdFloor(at)).toBe(true);
  });
});
