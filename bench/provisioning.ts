/**
 * Provisioning under faults: the fault-injection run of issue #8 (200
 * provision requests with repeated keys and duplicate deliveries, capacity
 * refused in some pools, throttling, workers dying between launch and record,
 * one reconcile) on the emulators, timed against the same requests without
 * faults in the same run; and placement decisions per second over the full
 * catalog (every type × every catalog region × 3 zones × on-demand and spot)
 * against a bare cheapest-price scan of the same pools.
 */
import { randomBytes } from 'node:crypto';
import { startEmulators } from '../local/emulators';
import { prepareFunctionEnvironment } from '../local/environment';
import { priceCatalog } from '../shared/catalog';
import { choosePool, type Pool } from '../shared/domain/placement';
import { DEFAULT_PLACEMENT_COSTS } from '../shared/domain/placement-costs';
import { buildPools } from '../shared/domain/pools';
import type { BenchmarkResult } from './support/benchmark';
import { runProvisioningScenario, type ScenarioResult } from './support/provisioning-scenario';
import { percentile, round } from './support/stats';

const REQUESTS = 200;
const SEED = 8;
const ZONES = ['a', 'b', 'c'];
const DECISIONS = 2_000;

/** Every catalog type in every catalog region, three zones each, on-demand and spot. */
function fullCatalogPools(): { pools: Pool[]; types: string[]; regions: number } {
  const regions = priceCatalog.regions();
  const types = priceCatalog.typesFor({}, regions).map((o) => o.instanceType);
  const pools = buildPools({
    catalog: priceCatalog,
    regions: regions.map((region) => ({ region, zones: ZONES.map((z) => `${region}${z}`) })),
    instanceTypes: types,
    modes: ['on-demand', 'spot'],
    spotPrices: new Map(),
    spotCatalogRatio: 0.4,
  });
  return { pools, types, regions: regions.length };
}

/** Decisions per second, best of three timed loops (the first warms the JIT). */
function perSecond(decide: (i: number) => unknown): number {
  let best = 0;
  for (let round = 0; round < 3; round += 1) {
    const started = performance.now();
    for (let i = 0; i < DECISIONS; i += 1) decide(i);
    best = Math.max(best, DECISIONS / ((performance.now() - started) / 1000));
  }
  return best;
}

function placementSpeed() {
  const { pools, types, regions } = fullCatalogPools();
  const dataRegions = ['us-east-1', 'eu-west-1', 'ap-northeast-1'];
  const choose = perSecond((i) =>
    choosePool(
      {
        instanceTypes: types,
        mode: i % 2 === 0 ? 'on-demand' : 'spot',
        nowMs: i,
        gpus: [1, 4, 8][i % 3],
        dataRegion: dataRegions[i % 3],
        dataGb: 100,
        costs: DEFAULT_PLACEMENT_COSTS,
      },
      pools,
    ),
  );
  const bare = perSecond((i) => {
    const mode = i % 2 === 0 ? 'on-demand' : 'spot';
    let best: Pool | undefined;
    for (const pool of pools) {
      if (pool.mode === mode && (!best || pool.priceMicroUsdPerHour < best.priceMicroUsdPerHour)) best = pool;
    }
    return best;
  });
  return { pools: pools.length, types: types.length, regions, choose, bare };
}

const p95 = (result: ScenarioResult) => round(percentile(result.secondsToRunning, 0.95), 2);

export async function run(): Promise<BenchmarkResult> {
  const speed = placementSpeed();
  const emulators = await startEmulators();
  try {
    const env = await prepareFunctionEnvironment(
      emulators.endpoints,
      'us-east-1',
      `b${randomBytes(4).toString('hex')}`,
    );
    Object.assign(process.env, env);
    const baseline = await runProvisioningScenario(env, { requests: REQUESTS, faults: false, seed: SEED });
    const faulty = await runProvisioningScenario(env, { requests: REQUESTS, faults: true, seed: SEED });
    const figures = {
      leases: faulty.leases,
      running: faulty.running,
      failed: faulty.failed,
      unsettled: faulty.unsettled,
      orphansAfterReconcile: faulty.orphansAfterReconcile,
      overLaunched: faulty.overLaunched,
      underLaunched: faulty.underLaunched,
      p95SecondsToRunning: p95(faulty),
      placementsPerSecond: Math.round(speed.choose),
      requests: REQUESTS,
      deliveries: faulty.deliveries,
      redeliveryRounds: faulty.rounds,
      injected: faulty.injected,
      wallSeconds: round(faulty.wallSeconds, 1),
      baseline: {
        what: 'the same requests without injected faults, same run',
        leases: baseline.leases,
        running: baseline.running,
        p95SecondsToRunning: p95(baseline),
        wallSeconds: round(baseline.wallSeconds, 1),
      },
      p95VsBaseline: round(p95(faulty) / p95(baseline), 2),
      wallVsBaseline: round(faulty.wallSeconds / baseline.wallSeconds, 2),
      placement: {
        pools: speed.pools,
        instanceTypes: speed.types,
        regions: speed.regions,
        bareScanPerSecond: Math.round(speed.bare),
        ratioVsBareScan: round(speed.choose / speed.bare, 3),
      },
    };
    return {
      key: 'provisioning',
      figures,
      summary: [
        `${REQUESTS} requests -> ${faulty.leases} leases: ${faulty.running} RUNNING, ${faulty.failed} FAILED with a reason, ${faulty.unsettled} unsettled`,
        `injected: ${faulty.injected.capacity} capacity errors, ${faulty.injected.throttled} throttles, ${faulty.injected.crashes} crashes; ${faulty.deliveries} deliveries in ${faulty.rounds} rounds`,
        `after one reconcile: ${faulty.orphansAfterReconcile} orphans, ${faulty.overLaunched} over-launched, ${faulty.underLaunched} under-launched`,
        `p95 to RUNNING ${p95(faulty)} s (no faults: ${p95(baseline)} s, x${figures.p95VsBaseline}); wall ${round(faulty.wallSeconds, 1)} s (x${figures.wallVsBaseline})`,
        `choosePool over ${speed.pools} pools (${speed.types} types x ${speed.regions} regions x 3 zones x 2 modes): ${Math.round(speed.choose)}/s, ${figures.placement.ratioVsBareScan} x a bare price scan (${Math.round(speed.bare)}/s)`,
      ].join('\n'),
    };
  } finally {
    await emulators.stop();
  }
}
