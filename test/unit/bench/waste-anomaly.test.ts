import { describe, expect, it } from 'vitest';
import {
  hasNaturalPrecedent,
  injectAnomalies,
  naturalLookAlikes,
  type SpendSeries,
} from '../../../bench/support/waste-anomaly';
import { syntheticTenantSeries } from '../../../bench/support/waste-synthetic';

const DAY = 1440;
const GPU = 3_060_000;

/** One GPU all along, with `extra` GPUs over the given minutes. */
function series(
  bumps: readonly { from: number; minutes: number; extra: number }[],
): Pick<SpendSeries, 'rates'> {
  const rates = new Float64Array(12 * DAY).fill(GPU);
  for (const { from, minutes, extra } of bumps) {
    for (let m = from; m < from + minutes; m++) rates[m] = (1 + extra) * GPU;
  }
  return { rates };
}

describe('natural look-alikes of an injected anomaly', () => {
  it('finds stretches of at least 2 x normal over normal lasting 10 minutes, from day 10 on', () => {
    const found = naturalLookAlikes(
      series([
        { from: 5 * DAY, minutes: 60, extra: 4 }, // before day 10: where no anomaly is injected
        { from: 10 * DAY + 100, minutes: 15, extra: 2 }, // exactly 2 x normal over it, 15 minutes
        { from: 10 * DAY + 400, minutes: 9, extra: 5 }, // too short
        { from: 10 * DAY + 600, minutes: 60, extra: 1.9 }, // too small
      ]),
      GPU,
    );
    expect(found).toEqual([{ from: 10 * DAY + 100, to: 10 * DAY + 115 }]);
  });

  it('takes stretches less than 30 minutes apart as one', () => {
    const found = naturalLookAlikes(
      series([
        { from: 11 * DAY, minutes: 10, extra: 3 },
        { from: 11 * DAY + 39, minutes: 10, extra: 3 },
        { from: 11 * DAY + 79, minutes: 10, extra: 3 },
      ]),
      GPU,
    );
    expect(found).toEqual([
      { from: 11 * DAY, to: 11 * DAY + 49 },
      { from: 11 * DAY + 79, to: 11 * DAY + 89 },
    ]);
  });
});

describe('whether an injected anomaly has a natural precedent', () => {
  // Normal is one GPU; on day 12 the tenant itself ran 3 GPUs more for an hour.
  const rates = new Float64Array(30 * DAY).fill(GPU);
  rates.fill(4 * GPU, 12 * DAY + 600, 12 * DAY + 660);
  const own = { rates };
  const step = (added: number, minutes: number) => ({
    kind: 'step' as const,
    from: 20 * DAY,
    to: 20 * DAY + minutes,
    added: added * GPU,
  });

  it('is true when the series spent as much over normal for as long in the 14 days before', () => {
    expect(hasNaturalPrecedent(own, step(3, 60), GPU)).toBe(true);
  });

  it('is false for more, for longer, or when the look-alike is over 14 days before', () => {
    expect(hasNaturalPrecedent(own, step(3.5, 60), GPU)).toBe(false);
    expect(hasNaturalPrecedent(own, step(3, 61), GPU)).toBe(false);
    expect(hasNaturalPrecedent(own, { ...step(3, 60), from: 27 * DAY, to: 27 * DAY + 60 }, GPU)).toBe(false);
  });
});

describe('anomalies injected as leases', () => {
  const minutes = 35 * DAY;
  const flat: SpendSeries = {
    tenant: 0,
    startMs: 0,
    rates: new Float64Array(minutes).fill(GPU),
    leases: [{ id: 'base', from: 0, to: minutes, cost: GPU, instanceCost: GPU }],
  };
  const { rates, leases, injected } = injectAnomalies(flat, 1, GPU);

  it('adds each anomaly as copies of a lease, the rate the leases make', () => {
    for (const x of injected.filter((i) => i.kind !== 'ramp')) {
      // No lease started in the week before: the template is one GPU, so round(added / GPU) copies.
      const copies = leases.filter((l) => l.id !== 'base' && l.from === x.from);
      expect(copies).toHaveLength(Math.max(1, Math.round(x.added / GPU)));
      expect(rates[x.from]).toBeCloseTo(GPU + x.added, 3);
      expect(rates[x.to]).toBe(GPU);
    }
  });

  it("starts a ramp's copies one after another, reaching its full rate at the end of the rise", () => {
    const ramp = injected.find((i) => i.kind === 'ramp');
    const copies = leases.filter((l) => l.id !== 'base' && ramp && l.from >= ramp.from && l.from < ramp.to);
    const starts = new Set(copies.map((l) => l.from));
    expect(starts.size).toBeGreaterThan(1);
    expect(rates[(ramp?.to ?? 0) - 1]).toBeCloseTo(GPU + (ramp?.added ?? 0), 3);
  });
});

describe('the synthetic tenant family', () => {
  const tenants = syntheticTenantSeries(1, 14, GPU);
  const meanGpus = (s: SpendSeries) => s.rates.reduce((a, b) => a + b, 0) / s.rates.length / GPU;

  it('spans small to large tenants near their target sizes (4 to 100 GPUs on average)', () => {
    const means = tenants.map(meanGpus);
    expect(means[0]).toBeGreaterThan(2);
    expect(means[0]).toBeLessThan(8);
    expect(means[7]).toBeGreaterThan(70);
    expect(means[7]).toBeLessThan(130);
    expect([...means].sort((a, b) => a - b)).toEqual(means);
  });

  it('has a daily cycle and a quieter weekend', () => {
    const large = tenants[7] as SpendSeries;
    const byHour = Array.from({ length: 24 }, (_, hour) => {
      let sum = 0;
      for (let day = 0; day < 5; day++)
        for (let m = 0; m < 60; m++) sum += large.rates[day * DAY + hour * 60 + m] ?? 0;
      return sum;
    });
    expect(Math.max(...byHour)).toBeGreaterThan(2 * Math.min(...byHour));
    const dayTotal = (day: number) =>
      large.rates.slice(day * DAY, (day + 1) * DAY).reduce((a, b) => a + b, 0);
    expect(dayTotal(5) + dayTotal(6)).toBeLessThan(dayTotal(1) + dayTotal(2));
  });

  it('is the same for the same seed and differs for another', () => {
    expect(syntheticTenantSeries(1, 2, GPU)[3]?.rates).toEqual(syntheticTenantSeries(1, 2, GPU)[3]?.rates);
    expect(syntheticTenantSeries(2, 2, GPU)[3]?.rates).not.toEqual(
      syntheticTenantSeries(1, 2, GPU)[3]?.rates,
    );
  });
});
