import { MAX_WAIT_MINUTES } from '../domain/admission/quota';
import type { LeaseView } from '../domain/lease';
import { dayOf } from '../domain/spend';
import type { SpendCounters } from '../ports/budgets';
import type { LeaseRepository } from '../ports/lease-repository';

/** A lease waits for admission at most MAX_WAIT_MINUTES from its creation: its wait can reach that far into a range. */
const QUEUE_LOOKBACK_MS = MAX_WAIT_MINUTES * 60_000;
/** Leases created earlier than that are read by key, this many at a time. */
const READS_AT_ONCE = 25;

export interface LeaseHistoryDeps {
  readonly leases: Pick<LeaseRepository, 'listCreatedBetween' | 'get'>;
  readonly spend: Pick<SpendCounters, 'leaseDailyUsage'>;
}

/**
 * The tenant's leases that can count in a report of [fromMs, toMs), newest
 * first, with their instances, read with queries bounded by the range, never
 * the tenant's whole history:
 * - those created in the range, or up to MAX_WAIT_MINUTES before it (a queued
 *   lease's wait may reach into the range): one key range, lease ids being
 *   time-ordered;
 * - those created before that which ran in the range: metering charged them on
 *   a day of it, so the range's daily per-lease rollups name them, and each is
 *   read by key.
 * A lease created earlier that neither waited nor ran in the range counts in
 * none of the reports (demand, tasks, waits, utilization, the export).
 */
export async function leasesInRange(
  deps: LeaseHistoryDeps,
  tenantId: string,
  fromMs: number,
  toMs: number,
): Promise<LeaseView[]> {
  const [created, charged] = await Promise.all([
    deps.leases.listCreatedBetween(tenantId, fromMs - QUEUE_LOOKBACK_MS, toMs),
    deps.spend.leaseDailyUsage(tenantId, dayOf(fromMs), dayOf(toMs - 1)),
  ]);
  const read = new Set(created.map((lease) => lease.leaseId));
  const earlier = [...new Set(charged.map((day) => day.leaseId))].filter((id) => !read.has(id));
  const older: LeaseView[] = [];
  for (let i = 0; i < earlier.length; i += READS_AT_ONCE) {
    const batch = await Promise.all(
      earlier.slice(i, i + READS_AT_ONCE).map((leaseId) => deps.leases.get(tenantId, leaseId)),
    );
    // The last day's rollups may name a lease created after `toMs`.
    older.push(
      ...batch.filter((lease): lease is LeaseView => lease !== undefined && lease.createdAtMs < toMs),
    );
  }
  return [...created, ...older].sort((a, b) => b.leaseId.localeCompare(a.leaseId));
}
