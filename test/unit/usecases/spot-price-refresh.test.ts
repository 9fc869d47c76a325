import { describe, expect, it } from 'vitest';
import { priceCatalog } from '../../../shared/catalog';
import type { LeaseInstance } from '../../../shared/domain/lease';
import { DEFAULT_PLACEMENT_COSTS } from '../../../shared/domain/placement-costs';
import { type PriceChange, type SpotPool, spotPoolKey } from '../../../shared/domain/price-changes';
import { UnavailableOfferings } from '../../../shared/domain/unavailable-offerings';
import type { Compute } from '../../../shared/ports/compute';
import type { LeaseRepository } from '../../../shared/ports/lease-repository';
import type { SpotPriceHistory } from '../../../shared/ports/spot-price-history';
import type { PlacementSettings } from '../../../shared/usecases/dependencies';
import { refreshSpotPrices } from '../../../shared/usecases/spot-price-refresh';

// In-memory ports: the rules of the refresh, apart from DynamoDB and EC2
// (which test/integration/spot-prices.test.ts runs on DynamoDB Local and moto).
const T0 = Date.parse('2026-11-30T12:00:00.000Z');
const POOL = 'us-east-1/us-east-1a/p3.2xlarge';

class MemoryHistory implements SpotPriceHistory {
  readonly changes = new Map<string, PriceChange[]>();
  async changesSince(pools: readonly SpotPool[], sinceMs: number) {
    return new Map(
      pools.map((pool) => {
        const key = spotPoolKey(pool);
        return [key, (this.changes.get(key) ?? []).filter((c) => c.fromMs > sinceMs)];
      }),
    );
  }
  async record(pool: SpotPool, change: PriceChange) {
    const key = spotPoolKey(pool);
    const list = this.changes.get(key) ?? [];
    if (!list.some((c) => c.fromMs === change.fromMs)) this.changes.set(key, [...list, change]);
  }
}

const spotInstance = (overrides: Partial<LeaseInstance> = {}): LeaseInstance => ({
  tenantId: 't',
  leaseId: 'l',
  instanceId: 'i-1',
  instanceType: 'p3.2xlarge',
  mode: 'spot',
  region: 'us-east-1',
  zone: 'us-east-1a',
  priceMicroUsdPerHour: 918_000,
  launchedAtMs: T0,
  meteredUntilMs: T0,
  billedSeconds: 0,
  billedMicroUsd: 0,
  meteringOpen: true,
  ...overrides,
});

function setup(published: number | undefined, open: LeaseInstance[] = [spotInstance()]) {
  const history = new MemoryHistory();
  const compute = {
    fleet: async () => [{ region: 'us-east-1', zones: ['us-east-1a'] }],
    spotPrices: async () => new Map(published === undefined ? [] : [['us-east-1a/p3.2xlarge', published]]),
  } as unknown as Compute;
  const placement: PlacementSettings = {
    regions: ['us-east-1'],
    costs: DEFAULT_PLACEMENT_COSTS,
    spotPriceSource: 'ec2',
    spotCatalogRatio: 1,
    defaultImage: 'gpu',
    unavailable: new UnavailableOfferings(),
  };
  let nowMs = T0 + 300_000;
  const deps = {
    leases: { openInstances: async () => open } as unknown as LeaseRepository,
    spotPrices: history,
    catalog: priceCatalog,
    compute,
    placement,
    now: () => nowMs,
  };
  return { history, deps, moveTo: (ms: number) => (nowMs = ms) };
}

describe('refreshing the spot prices of running pools', () => {
  it('records a price EC2 publishes that differs from what the instances pay, in force from now', async () => {
    const { history, deps } = setup(1_224_000);
    expect(await refreshSpotPrices(deps)).toBe(1);
    expect(history.changes.get(POOL)).toEqual([
      { fromMs: T0 + 300_000, priceMicroUsdPerHour: 1_224_000, source: 'ec2-spot-price-history' },
    ]);
  });

  it('records nothing while the published price is the one in force, however often it runs', async () => {
    const { history, deps, moveTo } = setup(1_224_000);
    await refreshSpotPrices(deps);
    moveTo(T0 + 600_000);
    expect(await refreshSpotPrices(deps)).toBe(0);
    expect(history.changes.get(POOL)).toHaveLength(1);
  });

  it('keeps the last known price when EC2 publishes none for the pool (no catalog guess)', async () => {
    const { history, deps } = setup(undefined);
    expect(await refreshSpotPrices(deps)).toBe(0);
    expect(history.changes.size).toBe(0);
  });

  it('records when a price went back to a recorded one but an instance launched since pays another', async () => {
    const { history, deps } = setup(918_000, [
      spotInstance(),
      spotInstance({ instanceId: 'i-2', launchedAtMs: T0 + 120_000, priceMicroUsdPerHour: 1_224_000 }),
    ]);
    expect(await refreshSpotPrices(deps)).toBe(1);
    expect(history.changes.get(POOL)?.[0]?.priceMicroUsdPerHour).toBe(918_000);
  });

  it('leaves on-demand, reserved and ended instances alone', async () => {
    const { history, deps } = setup(1_224_000, [
      spotInstance({ mode: 'on-demand' }),
      spotInstance({ mode: 'reserved' }),
      spotInstance({ endedAtMs: T0 + 60_000 }),
    ]);
    expect(await refreshSpotPrices(deps)).toBe(0);
    expect(history.changes.size).toBe(0);
  });
});
