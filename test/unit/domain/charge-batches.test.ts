import { describe, expect, it } from 'vitest';
import { chargeUpTo, EMPTY_CHECKPOINT } from '../../../shared/domain/billing';
import { type ChargeEntry, packChargeBatches } from '../../../shared/domain/charge-batches';
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

const actionsOf = (batch: ReturnType<typeof packChargeBatches>[number]) =>
  batch.entries.reduce((sum, e) => sum + (e.charge.seconds > 0 ? 2 : 1), 0) + batch.totals.length;

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
    expect(actionsOf(batch as NonNullable<typeof batch>)).toBe(2 * 3 + 5);
  });

  it('keeps a tenant’s charges together so their counters are shared', () => {
    const entries = Array.from({ length: 60 }, (_, i) =>
      entry(i % 2 === 0 ? 'even' : 'odd', `l-${i}`, `i-${i}`),
    );
    const batches = packChargeBatches(entries);
    for (const batch of batches) {
      expect(new Set(batch.entries.map((e) => e.instance.tenantId)).size).toBeLessThanOrEqual(2);
    }
    // 1-GPU leases cost 3 actions each (row, checkpoint, lease-day) plus a few shared counters.
    expect(batches.length).toBeLessThanOrEqual(3);
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
