import { describe, expect, it } from 'vitest';
import { chargeUpTo, EMPTY_CHECKPOINT } from '../../../shared/domain/billing';
import { type ChargeEntry, chargedEntries, packChargeBatches } from '../../../shared/domain/charge-batches';
import type { LeaseInstance } from '../../../shared/domain/lease';

const AT = Date.parse('2026-11-30T10:00:00Z');

function entry(
  tenantId: string,
  leaseId: string,
  instanceId: string,
  overrides: Partial<LeaseInstance> = {},
) {
  const instance: LeaseInstance = {
    tenantId,
    leaseId,
    instanceId,
    instanceType: 'g5.xlarge',
    mode: 'on-demand',
    zone: 'us-east-1a',
    priceMicroUsdPerHour: 1_006_000,
    launchedAtMs: AT - 600_000,
    meteredUntilMs: AT - 600_000,
    billedSeconds: 0,
    billedMicroUsd: 0,
    meteringOpen: true,
    ...overrides,
  };
  return {
    instance,
    charge: chargeUpTo(instance, EMPTY_CHECKPOINT, AT, false),
    atMs: AT,
  } satisfies ChargeEntry;
}

/** A checkpoint per charge, one usage record when any charge owes something, an update per aggregate. */
const actionsOf = (batch: ReturnType<typeof packChargeBatches>[number]) =>
  batch.entries.length + (batch.entries.some((e) => e.charge.seconds > 0) ? 1 : 0) + batch.totals.length;

describe('packing charges into transactions', () => {
  it('never exceeds 100 actions, and puts every charge in exactly one batch', () => {
    const entries = Array.from({ length: 1_000 }, (_, i) =>
      entry(`t${i % 7}`, `lease-${i % 130}`, `i-${i}`, { project: i % 3 === 0 ? 'vision' : undefined }),
    );
    const batches = packChargeBatches(entries);
    for (const batch of batches) expect(actionsOf(batch)).toBeLessThanOrEqual(100);
    const packed = batches.flatMap((b) => b.entries.map((e) => e.instance.instanceId));
    expect(packed.sort()).toEqual(entries.map((e) => e.instance.instanceId).sort());
  });

  it('sums a batch’s charges into one update per aggregate, matching the charges exactly', () => {
    const entries = [
      entry('acme', 'lease-a', 'i-1'),
      entry('acme', 'lease-a', 'i-2'),
      entry('acme', 'lease-b', 'i-3'),
    ];
    const [batch] = packChargeBatches(entries);
    const each = entries[0]?.charge.microUsd ?? 0;
    const byKind = (kind: string) => batch?.totals.filter((t) => t.aggregate.kind === kind) ?? [];
    // tenant + mode month counters, one daily rollup, two lease-days.
    expect(byKind('month').map((t) => t.microUsd)).toEqual([3 * each, 3 * each]);
    expect(byKind('day').map((t) => t.microUsd)).toEqual([3 * each]);
    expect(
      byKind('lease-day')
        .map((t) => t.microUsd)
        .sort(),
    ).toEqual([each, 2 * each].sort());
    expect(chargedEntries(batch as NonNullable<typeof batch>)).toHaveLength(3);
    expect(actionsOf(batch as NonNullable<typeof batch>)).toBe(3 + 1 + 5);
  });

  it('holds one tenant a batch (its usage record lives in the tenant’s partition), its counters shared', () => {
    const entries = Array.from({ length: 60 }, (_, i) =>
      entry(i % 2 === 0 ? 'even' : 'odd', `l-${i}`, `i-${i}`),
    );
    const batches = packChargeBatches(entries);
    for (const batch of batches) {
      expect(new Set(batch.entries.map((e) => e.instance.tenantId)).size).toBe(1);
    }
    // Per tenant: 30 checkpoints, 30 lease-days, one usage record, two month counters, one daily rollup.
    expect(batches.map(actionsOf)).toEqual([64, 64]);
  });

  it('groups a tenant’s charges by daily rollup, so a batch touches a contiguous few', () => {
    const modes = ['on-demand', 'spot', 'reserved'] as const;
    const types = ['g5.xlarge', 'p5.4xlarge', 'g6.xlarge', 'p3.2xlarge'];
    // Interleaved: consecutive instances never share a rollup.
    const entries = Array.from({ length: 600 }, (_, i) =>
      entry('acme', `l-${i}`, `i-${i}`, {
        mode: modes[i % 3],
        instanceType: types[i % 4],
        project: i % 5 === 0 ? 'vision' : undefined,
      }),
    );
    const rollups = new Set(
      entries.map((e) => `${e.instance.mode}|${e.instance.instanceType}|${e.instance.project}`),
    );
    const batches = packChargeBatches(entries);
    const dayTotals = batches.reduce(
      (sum, b) => sum + b.totals.filter((t) => t.aggregate.kind === 'day').length,
      0,
    );
    // Each rollup's charges are consecutive, so only a batch boundary can split one.
    expect(dayTotals).toBeLessThanOrEqual(rollups.size + batches.length - 1);
    const sum = (kind: string) =>
      batches.reduce(
        (total, b) =>
          total + b.totals.filter((t) => t.aggregate.kind === kind).reduce((s, t) => s + t.microUsd, 0),
        0,
      );
    const owed = entries.reduce((total, e) => total + e.charge.microUsd, 0);
    expect([sum('day'), sum('lease-day')]).toEqual([owed, owed]);
  });

  it('writes only the checkpoint for a charge of nothing (a close at the checkpoint)', () => {
    const closed = {
      ...entry('acme', 'l', 'i'),
      charge: { seconds: 0, microUsd: 0, checkpoint: EMPTY_CHECKPOINT },
    };
    const [batch] = packChargeBatches([closed]);
    expect(batch?.totals).toEqual([]);
    expect(actionsOf(batch as NonNullable<typeof batch>)).toBe(1);
  });

  it('respects a smaller limit', () => {
    const batches = packChargeBatches(
      Array.from({ length: 10 }, (_, i) => entry('acme', `l-${i}`, `i-${i}`)),
      12,
    );
    for (const batch of batches) expect(actionsOf(batch)).toBeLessThanOrEqual(12);
    expect(batches.length).toBeGreaterThan(1);
  });
});
