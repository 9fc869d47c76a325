import type { LeaseSpend } from '../../../shared/domain/budgets/alert-message';
import {
  type AggregateTotal,
  aggregateId,
  type ChargeEntry,
  chargeLines,
  packChargeBatches,
} from '../../../shared/domain/charge-batches';
import type { MicroUsd } from '../../../shared/domain/money';
import type { ChargedTenants } from '../../../shared/ports/audits';
import type {
  DailyUsage,
  DimensionDayUsage,
  LeaseDayUsage,
  SpendCounterKey,
  SpendCounters,
} from '../../../shared/ports/budgets';
import type { ChargeOutcome, MeteringLedger, UsageRecord } from '../../../shared/ports/metering-ledger';
import { Faults } from './faults';
import type { FakeLeaseRepository } from './lease-repository';

/**
 * The month-to-date counters and daily rollups the ledger adds to, read as
 * DynamoDbSpendCounters reads them; also the audit's charged-tenants list
 * (tenants with a tenant counter in the month), as DynamoDbChargedTenants.
 */
export class FakeSpendCounters implements SpendCounters, ChargedTenants {
  readonly faults = new Faults<keyof SpendCounters | 'chargedIn'>();
  private readonly totals = new Map<string, AggregateTotal>();

  /** Adds to an aggregate, as a committed charge does (tests may seed spend with it too). */
  add(total: AggregateTotal): void {
    const id = aggregateId(total.tenantId, total.aggregate);
    const current = this.totals.get(id);
    this.totals.set(id, {
      ...total,
      microUsd: (current?.microUsd ?? 0) + total.microUsd,
      seconds: (current?.seconds ?? 0) + total.seconds,
    });
  }

  async spendOf(keys: readonly SpendCounterKey[]): Promise<MicroUsd[]> {
    this.faults.enter('spendOf', [keys]);
    return keys.map(
      (key) =>
        this.totals.get(aggregateId(key.tenantId, { kind: 'month', month: key.month, scope: key.scope }))
          ?.microUsd ?? 0,
    );
  }

  async leaseSpends(tenantId: string, month: string, project?: string): Promise<LeaseSpend[]> {
    this.faults.enter('leaseSpends', [tenantId, month, project]);
    const byLease = new Map<string, number>();
    for (const day of await this.leaseDailyUsage(tenantId, `${month}-01`, `${month}-31`)) {
      if (project !== undefined && day.project !== project) continue;
      byLease.set(day.leaseId, (byLease.get(day.leaseId) ?? 0) + day.microUsd);
    }
    return [...byLease].map(([leaseId, microUsd]) => ({ leaseId, microUsd }));
  }

  async dailyUsage(tenantId: string, fromDay: string, toDay: string): Promise<DailyUsage[]> {
    this.faults.enter('dailyUsage', [tenantId, fromDay, toDay]);
    return this.ofTenant(tenantId).flatMap(({ aggregate: a, microUsd, seconds }) =>
      a.kind === 'day' && a.day >= fromDay && a.day <= toDay
        ? [{ day: a.day, mode: a.mode, instanceType: a.instanceType, project: a.project, seconds, microUsd }]
        : [],
    );
  }

  async leaseDailyUsage(tenantId: string, fromDay: string, toDay: string): Promise<LeaseDayUsage[]> {
    this.faults.enter('leaseDailyUsage', [tenantId, fromDay, toDay]);
    return this.ofTenant(tenantId).flatMap(({ aggregate: a, microUsd, seconds }) =>
      a.kind === 'lease-day' && a.day >= fromDay && a.day <= toDay
        ? [{ day: a.day, leaseId: a.leaseId, project: a.project, seconds, microUsd }]
        : [],
    );
  }

  async dimensionDailyUsage(tenantId: string, fromDay: string, toDay: string): Promise<DimensionDayUsage[]> {
    this.faults.enter('dimensionDailyUsage', [tenantId, fromDay, toDay]);
    return this.ofTenant(tenantId).flatMap(({ aggregate: a, microUsd }) =>
      a.kind === 'dimension-day' && a.day >= fromDay && a.day <= toDay
        ? [{ day: a.day, dimension: a.dimension, mode: a.mode, microUsd }]
        : [],
    );
  }

  async chargedIn(month: string): Promise<string[]> {
    this.faults.enter('chargedIn', [month]);
    return [...this.totals.values()]
      .filter(({ aggregate: a }) => a.kind === 'month' && a.month === month && a.scope.kind === 'tenant')
      .map((t) => t.tenantId)
      .sort();
  }

  /** In sort-key order, as a query of the tenant's partition returns them. */
  private ofTenant(tenantId: string): AggregateTotal[] {
    return [...this.totals.entries()]
      .filter(([, t]) => t.tenantId === tenantId)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([, t]) => t);
  }
}

/**
 * The ledger's contract without DynamoDB: a charge lands only if its
 * instance's checkpoint is still the one it was computed from (else
 * `already-recorded`, nothing counted), and then moves the checkpoint, adds to
 * every aggregate and writes its usage line in one step; a closing charge
 * takes the instance off the open list.
 */
export class FakeMeteringLedger implements MeteringLedger {
  readonly faults = new Faults<'applyCharges'>();
  readonly usage: UsageRecord[] = [];

  constructor(
    private readonly leases: FakeLeaseRepository,
    private readonly spend: FakeSpendCounters,
  ) {}

  async applyCharges(entries: readonly ChargeEntry[]): Promise<ChargeOutcome[]> {
    this.faults.enter('applyCharges', [entries]);
    const outcomes = entries.map(
      (entry): ChargeOutcome => (this.apply(entry) ? 'recorded' : 'already-recorded'),
    );
    this.faults.leave('applyCharges');
    return outcomes;
  }

  private apply(entry: ChargeEntry): boolean {
    const { instance, charge, atMs, close, storage } = entry;
    const moved = this.leases.checkpoint(instance, instance.billedSeconds, {
      billedSeconds: charge.checkpoint.billedSeconds,
      billedMicroUsd: charge.checkpoint.billedMicroUsd,
      meteredUntilMs: atMs,
      ...(close ? { endedAtMs: close.endedAtMs, meteringOpen: false } : {}),
      ...(storage ? storage.checkpoint : {}),
    });
    const lines = chargeLines(entry);
    if (!moved || lines.length === 0) return moved;
    for (const batch of packChargeBatches([entry])) for (const total of batch.totals) this.spend.add(total);
    this.usage.push({
      tenantId: instance.tenantId,
      atMs,
      charges: lines.map((line) => ({
        leaseId: instance.leaseId,
        instanceId: instance.instanceId,
        instanceType: instance.instanceType,
        mode: instance.mode,
        project: instance.project,
        dimension: line.dimension,
        atMs,
        seconds: line.seconds,
        microUsd: line.microUsd,
      })),
    });
    return true;
  }
}
