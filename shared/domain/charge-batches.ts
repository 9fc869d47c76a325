import type { Charge } from './billing';
import type { LeaseInstance } from './lease';
import { type Aggregate, aggregatesOf, type BillingDimension, dayOfCharge } from './spend';
import type { StorageCharge } from './storage-billing';

/** One charge to write: the instance as read (its checkpoint guards the write) and what it owes up to `atMs`. */
export interface ChargeEntry {
  readonly instance: LeaseInstance;
  readonly charge: Charge;
  readonly atMs: number;
  /** Closes the bill: the instance leaves the open list. */
  readonly close?: { readonly endedAtMs: number } | undefined;
  /** The instance's volumes up to `atMs`, on top of their checkpoint. */
  readonly storage?: StorageCharge | undefined;
  /** The lease's data moved to the instance's region: only on its first charge. */
  readonly transferMicroUsd?: number | undefined;
}

/** One dimension of what an entry owes: a line of its usage record. */
export interface ChargeLine {
  readonly dimension: BillingDimension;
  readonly seconds: number;
  readonly microUsd: number;
}

/**
 * What an entry owes, by dimension: compute whenever it adds seconds, storage
 * whenever its volumes add seconds, transfer when it carries one.
 */
export function chargeLines(entry: ChargeEntry): ChargeLine[] {
  const lines: ChargeLine[] = [];
  if (entry.charge.seconds > 0)
    lines.push({ dimension: 'compute', seconds: entry.charge.seconds, microUsd: entry.charge.microUsd });
  if (entry.storage && entry.storage.seconds > 0)
    lines.push({ dimension: 'storage', seconds: entry.storage.seconds, microUsd: entry.storage.microUsd });
  if (entry.transferMicroUsd)
    lines.push({ dimension: 'transfer', seconds: 0, microUsd: entry.transferMicroUsd });
  return lines;
}

/** Everything an entry owes, every dimension. */
export const entryMicroUsd = (entry: ChargeEntry): number =>
  chargeLines(entry).reduce((sum, line) => sum + line.microUsd, 0);

/** What a batch adds to one aggregate. */
export interface AggregateTotal {
  readonly aggregate: Aggregate;
  readonly tenantId: string;
  readonly microUsd: number;
  readonly seconds: number;
}

/**
 * Entries of one tenant written in one transaction, with their aggregates
 * summed (a transaction may touch an item once).
 */
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
    case 'dimension-day':
      return `${tenantId}|dimension-day|${aggregate.day}|${aggregate.dimension}|${aggregate.mode}`;
  }
}

/** Every charge moves its instance's checkpoint: one action each. */
const CHECKPOINT_ACTIONS = 1;
/** A batch that owes anything writes one usage record holding all its charges. */
const USAGE_RECORD_ACTIONS = 1;

const owes = (entry: ChargeEntry) => chargeLines(entry).length > 0;

/** What an entry adds to one aggregate. */
interface Addition {
  readonly aggregate: Aggregate;
  readonly microUsd: number;
  readonly seconds: number;
}

/**
 * The tenant's counters and rollups take every dimension's money (a budget
 * counts all of it, once) and compute's seconds (instance-seconds); storage
 * and transfer also add to a daily rollup of their own.
 */
function entryAdditions(entry: ChargeEntry): Addition[] {
  const lines = chargeLines(entry);
  if (lines.length === 0) return [];
  const microUsd = lines.reduce((sum, line) => sum + line.microUsd, 0);
  const seconds = entry.charge.seconds;
  const day = dayOfCharge(entry.atMs);
  return [
    ...aggregatesOf(entry.instance, entry.atMs).map((aggregate) => ({ aggregate, microUsd, seconds })),
    ...lines.flatMap(({ dimension, microUsd: lineMicroUsd }) =>
      dimension === 'compute'
        ? []
        : [
            {
              aggregate: { kind: 'dimension-day', day, dimension, mode: entry.instance.mode } as const,
              microUsd: lineMicroUsd,
              seconds: 0,
            },
          ],
    ),
  ];
}

/**
 * The order charges are packed in: by tenant (a tenant's month counters are
 * shared by all its charges), then by what its daily rollup is keyed on (mode,
 * instance type, project), then by lease, so that a batch touches as few
 * rollups as possible and its 100 actions go to charges rather than counters.
 */
function packingOrder(a: ChargeEntry, b: ChargeEntry): number {
  const x = a.instance;
  const y = b.instance;
  return (
    x.tenantId.localeCompare(y.tenantId) ||
    x.mode.localeCompare(y.mode) ||
    x.instanceType.localeCompare(y.instanceType) ||
    (x.project ?? '').localeCompare(y.project ?? '') ||
    x.leaseId.localeCompare(y.leaseId) ||
    x.instanceId.localeCompare(y.instanceId)
  );
}

/**
 * Packs charges into transactions of at most `maxActions`: a checkpoint update
 * per charge, one usage record per batch holding every charge that owes
 * something, and one update per distinct aggregate, summed over the batch.
 */
export function packChargeBatches(
  entries: readonly ChargeEntry[],
  maxActions = MAX_TRANSACTION_ACTIONS,
): ChargeBatch[] {
  const batches: ChargeBatch[] = [];
  let current: ChargeEntry[] = [];
  let totals = new Map<string, AggregateTotal>();
  let actions = 0;
  let hasRecord = false;
  /** Actions `entry` would add to the open batch. */
  const cost = (entry: ChargeEntry, additions: readonly Addition[]) =>
    CHECKPOINT_ACTIONS +
    (owes(entry) && !hasRecord ? USAGE_RECORD_ACTIONS : 0) +
    additions.filter(({ aggregate }) => !totals.has(aggregateId(entry.instance.tenantId, aggregate))).length;
  const flush = () => {
    if (current.length > 0) batches.push({ entries: current, totals: [...totals.values()] });
    current = [];
    totals = new Map();
    actions = 0;
    hasRecord = false;
  };
  for (const entry of [...entries].sort(packingOrder)) {
    const additions = entryAdditions(entry);
    // A batch's usage record lives in its tenant's partition: one tenant per batch.
    const otherTenant = current[0] !== undefined && current[0].instance.tenantId !== entry.instance.tenantId;
    if (current.length > 0 && (otherTenant || actions + cost(entry, additions) > maxActions)) flush();
    actions += cost(entry, additions);
    hasRecord ||= owes(entry);
    current.push(entry);
    const tenantId = entry.instance.tenantId;
    for (const { aggregate, microUsd, seconds } of additions) {
      const id = aggregateId(tenantId, aggregate);
      const total = totals.get(id);
      totals.set(id, {
        aggregate,
        tenantId,
        microUsd: (total?.microUsd ?? 0) + microUsd,
        seconds: (total?.seconds ?? 0) + seconds,
      });
    }
  }
  flush();
  return batches;
}

/** The charges of a batch that owe something: what its usage record holds. */
export const chargedEntries = (batch: ChargeBatch): ChargeEntry[] => batch.entries.filter(owes);
