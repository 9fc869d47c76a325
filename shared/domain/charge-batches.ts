import type { Charge } from './billing';
import type { LeaseInstance } from './lease';
import { type Aggregate, aggregatesOf } from './spend';

/** One charge to write: the instance as read (its checkpoint guards the write) and what it owes up to `atMs`. */
export interface ChargeEntry {
  readonly instance: LeaseInstance;
  readonly charge: Charge;
  readonly atMs: number;
  /** Closes the bill: the instance leaves the open list. */
  readonly close?: { readonly endedAtMs: number } | undefined;
}

/** What a batch adds to one aggregate. */
export interface AggregateTotal {
  readonly aggregate: Aggregate;
  readonly tenantId: string;
  readonly microUsd: number;
  readonly seconds: number;
}

/** Entries written in one transaction, with their aggregates summed (a transaction may touch an item once). */
export interface ChargeBatch {
  readonly entries: readonly ChargeEntry[];
  readonly totals: readonly AggregateTotal[];
}

/** DynamoDB's limit on the actions of one TransactWriteItems. */
export const MAX_TRANSACTION_ACTIONS = 100;

/** A stable identity for an aggregate of a tenant, to sum a batch's additions by. */
export function aggregateId(tenantId: string, aggregate: Aggregate): string {
  switch (aggregate.kind) {
    case 'month': {
      const { scope } = aggregate;
      const what = scope.kind === 'tenant' ? '' : scope.kind === 'mode' ? scope.mode : scope.project;
      return `${tenantId}|month|${aggregate.month}|${scope.kind}|${what}`;
    }
    case 'day':
      return `${tenantId}|day|${aggregate.day}|${aggregate.mode}|${aggregate.instanceType}|${aggregate.project ?? ''}`;
    case 'lease-day':
      return `${tenantId}|lease-day|${aggregate.day}|${aggregate.leaseId}`;
  }
}

const entryActions = (entry: ChargeEntry) => (entry.charge.seconds > 0 ? 2 : 1);
const entryAggregates = (entry: ChargeEntry) =>
  entry.charge.seconds > 0 ? aggregatesOf(entry.instance, entry.atMs) : [];

/**
 * Packs charges into transactions of at most `maxActions`: a usage row and a
 * checkpoint update per charge (only the checkpoint when nothing is owed), plus
 * one update per distinct aggregate. Charges of one tenant (and lease) are kept
 * together, so most of a batch's counters are shared and the batch holds as
 * many charges as it can.
 */
export function packChargeBatches(
  entries: readonly ChargeEntry[],
  maxActions = MAX_TRANSACTION_ACTIONS,
): ChargeBatch[] {
  const ordered = [...entries].sort(
    (a, b) =>
      a.instance.tenantId.localeCompare(b.instance.tenantId) ||
      a.instance.leaseId.localeCompare(b.instance.leaseId) ||
      a.instance.instanceId.localeCompare(b.instance.instanceId),
  );
  const batches: ChargeBatch[] = [];
  let current: ChargeEntry[] = [];
  let totals = new Map<string, AggregateTotal>();
  let actions = 0;
  const flush = () => {
    if (current.length > 0) batches.push({ entries: current, totals: [...totals.values()] });
    current = [];
    totals = new Map();
    actions = 0;
  };
  for (const entry of ordered) {
    const aggregates = entryAggregates(entry);
    const tenantId = entry.instance.tenantId;
    const fresh = aggregates.filter((aggregate) => !totals.has(aggregateId(tenantId, aggregate))).length;
    if (current.length > 0 && actions + entryActions(entry) + fresh > maxActions) flush();
    current.push(entry);
    actions += entryActions(entry);
    for (const aggregate of aggregates) {
      const id = aggregateId(tenantId, aggregate);
      const total = totals.get(id);
      if (!total) actions += 1;
      totals.set(id, {
        aggregate,
        tenantId,
        microUsd: (total?.microUsd ?? 0) + entry.charge.microUsd,
        seconds: (total?.seconds ?? 0) + entry.charge.seconds,
      });
    }
  }
  flush();
  return batches;
}
