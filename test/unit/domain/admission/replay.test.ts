import { describe, expect, it } from 'vitest';
import { priceCatalog } from '../../../../shared/catalog';
import { DEFAULT_HOLD_AFTER_MS } from '../../../../shared/domain/admission/admission-pass';
import { fairnessOf, jainIndex, weightedFairShares } from '../../../../shared/planning/admission/fairness';
import {
  type ReplayLease,
  type ReplaySetup,
  replayAdmission,
} from '../../../../shared/planning/admission/replay';
import { zipfTenantOf } from '../../../../shared/planning/admission/tenant-split';
import { candidate, MINUTE, NOW, pQuota, quota } from './fixtures';

const setup = (
  leases: ReplayLease[],
  fleetGpus: number,
  weights: Record<string, number> = {},
): ReplaySetup => ({
  leases,
  quotas: Object.fromEntries(
    Object.entries(weights).map(([tenantId, weight]) => [tenantId, quota({ weight })]),
  ),
  defaultQuota: quota(),
  capacity: pQuota(fleetGpus),
  catalog: priceCatalog,
  candidatesFor: (lease) => [candidate(lease.gpus)],
  maxWaitMinutes: 10_080,
});

const lease = (
  id: string,
  tenantId: string,
  arrivalMin: number,
  durationMin: number,
  gpus = 1,
): ReplayLease => ({
  id,
  tenantId,
  workload: 'batch',
  gpus,
  arrivalMs: NOW + arrivalMin * MINUTE,
  durationMs: durationMin * MINUTE,
});

describe('fairness figures', () => {
  it("computes Jain's index", () => {
    expect(jainIndex([2, 2, 2])).toBe(1);
    expect(jainIndex([1, 0, 0, 0])).toBe(0.25);
  });

  it('water-fills: a small demand is met, the rest split by weight', () => {
    const shares = weightedFairShares(
      [
        { demand: 10, weight: 1 },
        { demand: 1, weight: 1 },
        { demand: 10, weight: 2 },
      ],
      12,
    );
    expect(shares.map((s) => Number(s.toFixed(3)))).toEqual([3.667, 1, 7.333]);
    expect(weightedFairShares([{ demand: 3, weight: 1 }], 12)).toEqual([3]);
  });
});

describe('admission replay on synthetic traces', () => {
  it('splits a contended fleet by weight: fair, full, and every lease served', () => {
    // Two tenants each ask for 40 one-GPU, 30-minute leases at once; the fleet has 6 GPUs.
    const leases = Array.from({ length: 40 }, (_, i) => [
      lease(`heavy-${i}`, 'heavy', 0, 30),
      lease(`light-${i}`, 'light', 0, 30),
    ]).flat();
    const weights = { heavy: 2, light: 1 };
    const { outcomes, segments } = replayAdmission(setup(leases, 6, weights));
    const busy = segments.find((s) => s.fromMs === NOW);
    expect(busy?.runningGpus).toEqual({ heavy: 4, light: 2 });
    const figures = fairnessOf(segments, weights, 6);
    expect(figures.cappedUtilization).toBe(1);
    // Once heavy's leases run out, light waits alone and uses the whole fleet: still fair.
    expect(figures.jainIndex).toBeGreaterThan(0.99);
    expect(outcomes.every((o) => o.startMs !== null)).toBe(true);
  });

  it('does not starve a big lease behind a stream of small ones', () => {
    // A one-GPU lease arrives every 5 minutes for 10 hours, each runs 20 minutes, on a 4-GPU fleet.
    const small = Array.from({ length: 120 }, (_, i) => lease(`small-${i}`, 'stream', i * 5, 20));
    const big = lease('big', 'big', 7, 30, 4);
    const { outcomes } = replayAdmission(setup([...small, big], 4));
    const started = outcomes.find((o) => o.lease.id === 'big')?.startMs as number;
    // It holds the fleet once it has waited the hold time; the smalls then running end within 20 minutes.
    expect(started).toBeLessThanOrEqual(big.arrivalMs + DEFAULT_HOLD_AFTER_MS + 20 * MINUTE);
  });

  it('estimates starts exactly when durations repeat and nothing jumps the queue', () => {
    // One tenant, 2 GPUs, a 10-minute lease every 2 minutes: the queue grows, history soon knows 10 minutes.
    const leases = Array.from({ length: 40 }, (_, i) => lease(`l-${i}`, 'solo', i * 2, 10));
    const { outcomes } = replayAdmission(setup(leases, 2));
    const late = outcomes.filter((o) => o.prediction && o.lease.arrivalMs >= NOW + 30 * MINUTE);
    expect(late.length).toBeGreaterThan(10);
    for (const o of late) {
      expect(o.prediction?.basis).toBe('history:tenant-workload');
      expect(o.prediction?.estimatedStartAtMs).toBe(o.startMs);
    }
  });

  it('splits leases across tenants by id, the first tenant drawing the most', () => {
    const tenants = ['a', 'b', 'c', 'd'];
    const counts = new Map<string, number>();
    for (let i = 0; i < 4000; i++) {
      const tenant = zipfTenantOf(`pod-${i}`, tenants);
      counts.set(tenant, (counts.get(tenant) ?? 0) + 1);
    }
    expect(zipfTenantOf('pod-7', tenants)).toBe(zipfTenantOf('pod-7', tenants));
    const [a, b, c, d] = tenants.map((t) => counts.get(t) ?? 0) as [number, number, number, number];
    expect(a).toBeGreaterThan(b);
    expect(b).toBeGreaterThan(c);
    expect(c).toBeGreaterThan(d);
  });
});
