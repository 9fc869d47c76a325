/**
 * Metering at fleet scale, against DynamoDB Local: one metering pass over 1,000
 * and over 10,000 open instances as the metering function runs it (the open
 * list read from its index, charges packed up to 100 actions a transaction with
 * their counters and rollups summed, tenants side by side), against a naive
 * pass in the same run (one read and one transaction per instance, in
 * sequence) on an identical fleet in separate tables. Both passes must bill
 * exactly the closed-form amount. A third pass on its own fleet writes only what
 * any exact meter must write per instance, its checkpoint, 100 a transaction
 * through the same ledger: the ceiling of the batched rate on this emulator.
 * Then a month of daily passes shows how many items a month's `GET /v1/usage`
 * reads for that fleet.
 */
import { type EmulatorEndpoints, startEmulators } from '../local/emulators';
import { prepareFunctionEnvironment } from '../local/environment';
import { instanceKey, METERING_OPEN, tenantKey } from '../shared/adapters/dynamodb-keys';
import { DynamoDbLeaseRepository } from '../shared/adapters/dynamodb-lease-repository';
import { DynamoDbMeteringLedger } from '../shared/adapters/dynamodb-metering-ledger';
import { DynamoDbSpendCounters } from '../shared/adapters/dynamodb-spend-counters';
import { DynamoDbSpotPriceHistory } from '../shared/adapters/dynamodb-spot-price-history';
import { priceCatalog } from '../shared/catalog';
import { chargeUpTo, EMPTY_CHECKPOINT } from '../shared/domain/billing';
import type { LeaseInstance, RentalMode } from '../shared/domain/lease';
import { meterOpenInstances } from '../shared/usecases/metering';
import type { BenchmarkResult } from './support/benchmark';
import { countingClient, writeAll } from './support/dynamodb';
import { round } from './support/stats';

const SIZES = [1_000, 10_000] as const;
const TENANTS = 10;
const MODES: RentalMode[] = ['on-demand', 'spot', 'reserved'];
const TYPES = ['g5.xlarge', 'g6.xlarge', 'p5.4xlarge', 'p3.2xlarge'];
const PROJECTS = ['vision', 'speech', undefined];
const T0 = Date.parse('2031-03-01T00:00:00Z');
const PASS_AT = T0 + 5 * 60_000;
const DAYS = 30;

function fleet(size: number): LeaseInstance[] {
  return Array.from({ length: size }, (_, i) => ({
    tenantId: `tenant-${i % TENANTS}`,
    leaseId: `lease-${i}`,
    instanceId: `i-${i}`,
    instanceType: TYPES[i % TYPES.length] as string,
    mode: MODES[Math.floor(i / TYPES.length) % MODES.length] as RentalMode,
    project: PROJECTS[Math.floor(i / (TYPES.length * MODES.length)) % PROJECTS.length],
    zone: 'us-east-1a',
    priceMicroUsdPerHour: 1_006_000 + (i % 97) * 10_001,
    launchedAtMs: T0 + (i % 60) * 1_000,
    meteredUntilMs: T0 + (i % 60) * 1_000,
    billedSeconds: 0,
    billedMicroUsd: 0,
    meteringOpen: true,
  }));
}

async function seededStores(prefix: string, instances: readonly LeaseInstance[]) {
  const env = await prepareFunctionEnvironment(emulatorEndpoints, 'us-east-1', prefix);
  const counting = countingClient(emulatorEndpoints.dynamodb);
  await writeAll(
    counting.documents,
    env.LEASES_TABLE_NAME ?? '',
    instances.map(({ meteringOpen: _open, ...instance }) => ({
      pk: tenantKey(instance.tenantId),
      sk: instanceKey(instance.leaseId, instance.instanceId),
      entity: 'instance',
      ...instance,
      meteringOpen: METERING_OPEN,
    })),
  );
  const leases = new DynamoDbLeaseRepository(counting.documents, env.LEASES_TABLE_NAME ?? '');
  const ledger = new DynamoDbMeteringLedger(counting.documents, {
    leases: env.LEASES_TABLE_NAME ?? '',
    usage: env.USAGE_TABLE_NAME ?? '',
    spend: env.SPEND_TABLE_NAME ?? '',
  });
  const spend = new DynamoDbSpendCounters(counting.documents, env.SPEND_TABLE_NAME ?? '');
  const spotPrices = new DynamoDbSpotPriceHistory(counting.documents, env.LEASES_TABLE_NAME ?? '');
  counting.reset();
  return { leases, ledger, spend, spotPrices, catalog: priceCatalog, counting };
}

let emulatorEndpoints: EmulatorEndpoints;

/** What the fleet owes at the pass, in closed form. */
const owed = (instances: readonly LeaseInstance[]) =>
  instances.reduce((sum, i) => sum + chargeUpTo(i, EMPTY_CHECKPOINT, PASS_AT, false).microUsd, 0);

async function batchedPass(size: number) {
  const instances = fleet(size);
  const stores = await seededStores(`bench-batched-${size}`, instances);
  const start = performance.now();
  const summary = await meterOpenInstances(stores, PASS_AT);
  const seconds = (performance.now() - start) / 1000;
  if (summary.microUsd !== owed(instances) || summary.charged !== size) {
    throw new Error(
      `batched pass billed ${summary.microUsd} µ$ for ${summary.charged}, owed ${owed(instances)}`,
    );
  }
  return { stores, seconds, requests: stores.counting.requests() };
}

/**
 * The checkpoint floor: every instance's checkpoint rewritten in place (a charge
 * of nothing, so no usage record and no aggregate), through the ledger's lanes.
 */
async function checkpointFloorPass(size: number) {
  const instances = fleet(size);
  const stores = await seededStores(`bench-floor-${size}`, instances);
  const nothing = { seconds: 0, microUsd: 0, checkpoint: EMPTY_CHECKPOINT };
  const start = performance.now();
  const outcomes = await stores.ledger.applyCharges(
    instances.map((instance) => ({ instance, charge: nothing, atMs: instance.meteredUntilMs })),
  );
  const seconds = (performance.now() - start) / 1000;
  if (outcomes.some((outcome) => outcome !== 'recorded')) throw new Error('a checkpoint was not written');
  return { seconds };
}

async function naivePass(size: number) {
  const instances = fleet(size);
  const stores = await seededStores(`bench-naive-${size}`, instances);
  let microUsd = 0;
  const start = performance.now();
  for (const ref of instances) {
    const [instance] = await stores.leases.instancesByRef([ref]);
    if (!instance) continue;
    const charge = chargeUpTo(instance, instance, PASS_AT, false);
    const [outcome] = await stores.ledger.applyCharges([{ instance, charge, atMs: PASS_AT }]);
    if (outcome === 'recorded') microUsd += charge.microUsd;
  }
  const seconds = (performance.now() - start) / 1000;
  if (microUsd !== owed(instances))
    throw new Error(`naive pass billed ${microUsd} µ$, owed ${owed(instances)}`);
  return { seconds, requests: stores.counting.requests() };
}

export async function run(): Promise<BenchmarkResult> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const emulators = await startEmulators();
  emulatorEndpoints = emulators.endpoints;
  try {
    const bySize: Record<string, Record<string, number>> = {};
    let largest: Awaited<ReturnType<typeof batchedPass>> | undefined;
    for (const size of SIZES) {
      const batched = await batchedPass(size);
      const naive = await naivePass(size);
      const floor = await checkpointFloorPass(size);
      bySize[size] = {
        instancesPerSecond: round(size / batched.seconds, 0),
        baselineInstancesPerSecond: round(size / naive.seconds, 0),
        speedup: round(naive.seconds / batched.seconds, 1),
        requestsPerInstance: round(batched.requests / size, 4),
        baselineRequestsPerInstance: round(naive.requests / size, 4),
        passSeconds: round(batched.seconds, 2),
        checkpointFloorInstancesPerSecond: round(size / floor.seconds, 0),
        checkpointFloorSpeedup: round(naive.seconds / floor.seconds, 1),
      };
      largest = batched;
    }
    // A month of the largest fleet: one pass a day, then the month's usage as the API reads it.
    const stores = largest?.stores;
    if (!stores) throw new Error('no pass ran');
    for (let day = 1; day < DAYS; day += 1) await meterOpenInstances(stores, PASS_AT + day * 86_400_000);
    stores.counting.reset();
    const month = await stores.spend.dailyUsage('tenant-0', '2031-03-01', '2031-03-31');
    const usageMonthItemsRead = stores.counting.items();
    if (usageMonthItemsRead !== month.length) throw new Error('the month read more items than it returned');

    const top = bySize[10_000] as Record<string, number>;
    const figures = {
      instances: 10_000,
      instancesPerSecond: top.instancesPerSecond,
      baselineInstancesPerSecond: top.baselineInstancesPerSecond,
      requestsPerInstance: top.requestsPerInstance,
      baselineRequestsPerInstance: top.baselineRequestsPerInstance,
      usageMonthItemsRead,
      bySize,
      fleet: `${TENANTS} tenants, 1-GPU leases, ${MODES.length} modes × ${TYPES.length} types × ${PROJECTS.length} project labels`,
    };
    return {
      key: 'metering',
      figures,
      summary: [
        ...SIZES.map((size) => {
          const f = bySize[size] as Record<string, number>;
          return (
            `${size} instances: ${f.instancesPerSecond}/s batched (${f.passSeconds} s, ${f.requestsPerInstance} requests each) vs ${f.baselineInstancesPerSecond}/s naive (${f.baselineRequestsPerInstance} requests each): ${f.speedup}x; ` +
            `checkpoints alone: ${f.checkpointFloorInstancesPerSecond}/s (${f.checkpointFloorSpeedup}x naive)`
          );
        }),
        `both passes billed exactly the closed-form amount`,
        `a month of one tenant's usage (${DAYS} daily passes over ${10_000 / TENANTS} of its instances): ${usageMonthItemsRead} items read`,
      ].join('\n'),
    };
  } finally {
    await emulators.stop();
  }
}
