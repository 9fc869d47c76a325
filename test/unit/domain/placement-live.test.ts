import { describe, expect, it } from 'vitest';
import { priceCatalog } from '../../../shared/catalog';
import { choosePool, type PlacementRequest, type Pool, rankPools } from '../../../shared/domain/placement';
import {
  DEFAULT_PLACEMENT_COSTS,
  placementCostsSchema,
  placementOverheadMicroUsd,
} from '../../../shared/domain/placement-costs';
import { buildPools } from '../../../shared/domain/pools';
import { UnavailableOfferings } from '../../../shared/domain/unavailable-offerings';

const NOW = Date.UTC(2026, 10, 30);
const usd = (value: number) => Math.round(value * 1_000_000);

function pool(
  region: string,
  instanceType: string,
  price: number,
  gpusPerInstance = 1,
  extra: Partial<Pool> = {},
): Pool {
  return {
    region,
    zone: `${region}a`,
    instanceType,
    mode: 'on-demand',
    priceMicroUsdPerHour: usd(price),
    available: true,
    gpusPerInstance,
    ...extra,
  };
}

const base: PlacementRequest = {
  instanceTypes: ['one.xl', 'four.xl', 'eight.xl'],
  mode: 'on-demand',
  nowMs: NOW,
};

describe('choosePool across types, regions and data location', () => {
  const cases: {
    name: string;
    request: Partial<PlacementRequest>;
    pools: Pool[];
    expected: { zone: string; type: string; instances: number } | null;
    reason: RegExp;
  }[] = [
    {
      name: '8 GPUs go on one 8-GPU instance when it is cheaper than eight 1-GPU ones',
      request: { gpus: 8 },
      pools: [pool('us-east-1', 'one.xl', 1.0), pool('us-east-1', 'eight.xl', 7.5, 8)],
      expected: { zone: 'us-east-1a', type: 'eight.xl', instances: 1 },
      reason: /on-demand eight\.xl us-east-1a at \$7\.500000\/h/,
    },
    {
      name: '8 GPUs stay on 1-GPU instances when the big one costs more',
      request: { gpus: 8 },
      pools: [pool('us-east-1', 'one.xl', 0.9), pool('us-east-1', 'eight.xl', 7.5, 8)],
      expected: { zone: 'us-east-1a', type: 'one.xl', instances: 8 },
      reason: /8 × one\.xl us-east-1a at \$7\.200000\/h/,
    },
    {
      name: 'never more GPUs than asked: 2 GPUs cannot use a 4-GPU instance, however cheap',
      request: { gpus: 2 },
      pools: [pool('us-east-1', 'four.xl', 0.1, 4), pool('us-east-1', 'one.xl', 1.0)],
      expected: { zone: 'us-east-1a', type: 'one.xl', instances: 2 },
      reason: /2 × one\.xl/,
    },
    {
      name: 'a pool away from the data pays latency and transfer, so the nearer dearer one wins',
      request: { dataRegion: 'eu-west-1', dataGb: 100 },
      pools: [pool('us-east-1', 'one.xl', 1.0), pool('eu-west-1', 'one.xl', 1.3)],
      expected: { zone: 'eu-west-1a', type: 'one.xl', instances: 1 },
      reason: /skipped|cheapest/,
    },
    {
      name: 'a far pool still wins when it saves more than latency and transfer cost',
      request: { dataRegion: 'eu-west-1', dataGb: 10 },
      pools: [pool('us-east-1', 'one.xl', 1.0), pool('eu-west-1', 'one.xl', 2.0)],
      expected: { zone: 'us-east-1a', type: 'one.xl', instances: 1 },
      reason: /\+ \$0\.700000 away from eu-west-1/,
    },
    {
      name: 'pools over the price ceiling are skipped and named',
      request: { gpus: 2, maxHourlyMicroUsd: usd(2.5) },
      pools: [pool('us-west-2', 'one.xl', 1.5), pool('us-east-1', 'one.xl', 1.2)],
      expected: { zone: 'us-east-1a', type: 'one.xl', instances: 2 },
      reason: /one\.xl in us-west-2a costs \$3\.000000\/h/,
    },
    {
      name: 'nothing under the ceiling: no pool, and why',
      request: { maxHourlyMicroUsd: usd(0.5) },
      pools: [pool('us-east-1', 'one.xl', 1.0)],
      expected: null,
      reason:
        /^no on-demand pool for one\.xl\|four\.xl\|eight\.xl can launch now \(skipped: one\.xl in us-east-1a costs/,
    },
    {
      name: 'types outside the request are never chosen',
      request: { instanceTypes: ['one.xl'] },
      pools: [pool('us-east-1', 'other.xl', 0.1), pool('us-east-1', 'one.xl', 1.0)],
      expected: { zone: 'us-east-1a', type: 'one.xl', instances: 1 },
      reason: /one\.xl/,
    },
  ];

  for (const c of cases) {
    it(c.name, () => {
      const placement = choosePool({ ...base, costs: DEFAULT_PLACEMENT_COSTS, ...c.request }, c.pools);
      expect(
        placement.pool && {
          zone: placement.pool.zone,
          type: placement.pool.instanceType,
          instances: placement.instances,
        },
      ).toEqual(c.expected);
      expect(placement.reason).toMatch(c.reason);
    });
  }

  it('ranks every eligible pool by score, the same order choosePool would try them in', () => {
    const pools = [
      pool('us-west-2', 'one.xl', 1.1),
      pool('us-east-1', 'one.xl', 1.0),
      pool('eu-west-1', 'one.xl', 0.9),
    ];
    const request = { ...base, dataRegion: 'us-east-1', costs: DEFAULT_PLACEMENT_COSTS };
    const ranked = rankPools(request, pools).map((a) => a.pool.region);
    expect(ranked).toEqual(['us-east-1', 'us-west-2', 'eu-west-1']);
    expect(choosePool(request, pools).pool?.region).toBe(ranked[0]);
  });
});

describe('placement costs', () => {
  it('charges nothing at home, the continent penalty nearby and the table rate per GB', () => {
    const costs = DEFAULT_PLACEMENT_COSTS;
    expect(placementOverheadMicroUsd(costs, 'us-east-1', 'us-east-1', 500)).toBe(0);
    expect(placementOverheadMicroUsd(costs, undefined, 'us-east-1', 500)).toBe(0);
    // $0.10/h same continent + 100 GB × $0.01 (us-east-1 → us-east-2).
    expect(placementOverheadMicroUsd(costs, 'us-east-1', 'us-east-2', 100)).toBe(usd(1.1));
    // $0.50/h across continents + 100 GB × $0.02 default.
    expect(placementOverheadMicroUsd(costs, 'us-east-1', 'eu-west-1', 100)).toBe(usd(2.5));
  });

  it('reads overrides from configuration and refuses malformed tables', () => {
    const costs = placementCostsSchema.parse({
      transferUsdPerGb: { 'us-east-1>eu-west-1': 0.05 },
      defaultLatencyPenaltyUsdPerHour: 0,
    });
    expect(placementOverheadMicroUsd(costs, 'us-east-1', 'eu-west-1', 10)).toBe(usd(0.5));
    expect(costs.transferMicroUsdPerGb['us-east-1>us-east-2']).toBe(usd(0.01));
    expect(placementCostsSchema.safeParse({ transferUsdPerGb: { 'us-east-1': 0.05 } }).success).toBe(false);
    expect(placementCostsSchema.safeParse({ defaultTransferUsdPerGb: -1 }).success).toBe(false);
    expect(placementCostsSchema.safeParse({ surprise: 1 }).success).toBe(false);
  });
});

describe('buildPools', () => {
  const regions = [
    { region: 'us-east-1', zones: ['us-east-1a', 'us-east-1b'] },
    { region: 'us-west-2', zones: ['us-west-2a'] },
  ];

  it('prices on-demand from the catalog and spot from EC2, else on-demand × the ratio, saying which', () => {
    const pools = buildPools({
      catalog: priceCatalog,
      regions,
      instanceTypes: ['g5.xlarge', 'g5.48xlarge'],
      modes: ['on-demand', 'spot'],
      spotPrices: new Map([['us-east-1', new Map([['us-east-1a/g5.xlarge', usd(0.4)]])]]),
      spotCatalogRatio: 0.5,
    });
    expect(pools).toHaveLength(2 * 3 * 2);
    const find = (zone: string, type: string, mode: string) =>
      pools.find((p) => p.zone === zone && p.instanceType === type && p.mode === mode);
    expect(find('us-east-1a', 'g5.xlarge', 'on-demand')).toMatchObject({
      priceMicroUsdPerHour: priceCatalog.onDemandMicroPerHour('g5.xlarge', 'us-east-1'),
      priceSource: 'catalog',
      gpusPerInstance: 1,
    });
    expect(find('us-east-1a', 'g5.xlarge', 'spot')).toMatchObject({
      priceMicroUsdPerHour: usd(0.4),
      priceSource: 'ec2-spot-price-history',
    });
    expect(find('us-east-1b', 'g5.xlarge', 'spot')).toMatchObject({
      priceMicroUsdPerHour: Math.round(priceCatalog.onDemandMicroPerHour('g5.xlarge', 'us-east-1') * 0.5),
      priceSource: 'catalog-spot-ratio',
    });
    expect(find('us-west-2a', 'g5.48xlarge', 'on-demand')?.gpusPerInstance).toBe(8);
  });

  it('offers a type only where the catalog prices it', () => {
    const pools = buildPools({
      catalog: priceCatalog,
      regions: [{ region: 'xx-nowhere-1', zones: ['xx-nowhere-1a'] }],
      instanceTypes: ['g5.xlarge'],
      modes: ['on-demand'],
      spotPrices: new Map(),
      spotCatalogRatio: 1,
    });
    expect(pools).toEqual([]);
  });
});

describe('UnavailableOfferings', () => {
  it('keeps a refused offering out for the back-off, then forgets it', () => {
    const cache = new UnavailableOfferings();
    const refused = pool('us-east-1', 'one.xl', 1.0);
    cache.markUnavailable(refused, NOW);
    const [marked] = cache.apply([refused], NOW + 1000);
    expect(marked?.lastCapacityFailureAtMs).toBe(NOW);
    expect(choosePool(base, [marked as Pool]).pool).toBeNull();
    const [later] = cache.apply([refused], NOW + 3 * 60_000);
    expect(later?.lastCapacityFailureAtMs).toBeUndefined();
    expect(cache.size).toBe(0);
  });
});
