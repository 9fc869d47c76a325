import type { LeaseInstance } from '../domain/lease';
import { priceInForce, type SpotPool, spotPoolKey, spotPoolOf } from '../domain/price-changes';
import type { ControlPlane } from './dependencies';
import { livePools } from './pools';
import { priceChangesOf } from './price-history';

type Deps = Pick<ControlPlane, 'leases' | 'spotPrices' | 'catalog' | 'compute' | 'placement' | 'now'>;

/**
 * Records the spot price of every pool an open spot instance runs in when it
 * is not the price that instance pays now. The change is in force from now,
 * the instant gpurent learns it, never earlier: what is already billed stays
 * billed, and ticks, late runs and closing charges keep adding up to the same
 * closed form. Until a newer price is recorded (EC2 publishing none for the
 * pool included), the last known one stays in force. Returns the number of
 * changes recorded.
 */
export async function refreshSpotPrices(deps: Deps): Promise<number> {
  const nowMs = deps.now();
  const byPool = new Map<string, { pool: SpotPool; instances: LeaseInstance[] }>();
  for (const instance of await deps.leases.openInstances()) {
    const pool = spotPoolOf(instance);
    if (!pool || instance.endedAtMs !== undefined) continue;
    const key = spotPoolKey(pool);
    const entry = byPool.get(key) ?? { pool, instances: [] };
    entry.instances.push(instance);
    byPool.set(key, entry);
  }
  if (byPool.size === 0) return 0;
  const pools = [...byPool.values()].map(({ pool }) => pool);
  const [quotes, changesOf] = await Promise.all([
    livePools(deps, {
      instanceTypes: [...new Set(pools.map((pool) => pool.instanceType))],
      regions: [...new Set(pools.map((pool) => pool.region))],
      modes: ['spot'],
      nowMs,
    }),
    priceChangesOf(
      deps,
      [...byPool.values()].flatMap(({ instances }) => instances),
    ),
  ]);
  let recorded = 0;
  for (const [key, { pool, instances }] of byPool) {
    const quote = quotes.find((candidate) => spotPoolKey(candidate) === key);
    // EC2 published nothing for the pool (the quote fell back to the catalog ratio): no newer
    // price is known, so the last known one stays in force rather than a guess.
    if (
      !quote ||
      (deps.placement.spotPriceSource === 'ec2' && quote.priceSource !== 'ec2-spot-price-history')
    )
      continue;
    const stale = instances.some(
      (instance) =>
        priceInForce({ ...instance, priceChanges: changesOf(instance) }, nowMs).priceMicroUsdPerHour !==
        quote.priceMicroUsdPerHour,
    );
    if (!stale) continue;
    await deps.spotPrices.record(pool, {
      fromMs: nowMs,
      priceMicroUsdPerHour: quote.priceMicroUsdPerHour,
      source: quote.priceSource ?? 'ec2-spot-price-history',
    });
    recorded += 1;
  }
  return recorded;
}
