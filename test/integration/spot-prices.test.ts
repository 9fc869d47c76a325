import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiEvent } from '../../local/runtime/api-event';
import { lambdaContext } from '../../local/runtime/lambda-context';
import { scheduledEvent } from '../../local/runtime/schedules';
import { priceCatalog } from '../../shared/catalog';
import { costOfPricedSeconds, microToUsd } from '../../shared/domain/money';
import type { Ports } from '../../shared/lambda/port-factory';
import type { LeaseRepository } from '../../shared/ports/lease-repository';
import { storesOf, useFreshResources } from '../support/function-env';
import { commandRecord, storedLease } from '../support/leases';
import { usageCharges } from '../support/usage-records';

let env: Record<string, string>;
let worker: typeof import('../../functions/lease-worker/handler').handler;
let metering: typeof import('../../functions/metering/handler').handler;
let api: typeof import('../../functions/api/handler').handler;
let refreshSpotPrices: typeof import('../../shared/usecases/spot-price-refresh').refreshSpotPrices;
let controlPlane: Ports<typeof import('../../functions/reconciler/wiring').reconcilerWiring>;
let leases: LeaseRepository;

beforeAll(async () => {
  env = await useFreshResources();
  ({ handler: worker } = await import('../../functions/lease-worker/handler'));
  ({ handler: metering } = await import('../../functions/metering/handler'));
  ({ handler: api } = await import('../../functions/api/handler'));
  ({ refreshSpotPrices } = await import('../../shared/usecases/spot-price-refresh'));
  const { buildPorts } = await import('../../shared/lambda/port-factory');
  const { reconcilerWiring } = await import('../../functions/reconciler/wiring');
  controlPlane = buildPorts(reconcilerWiring);
  ({ leases } = await storesOf(env));
});
afterEach(() => {
  vi.useRealTimers();
});

const tick = (atMs: number) =>
  metering(scheduledEvent('metering', atMs, 'us-east-1'), lambdaContext('metering', 60_000));

async function getLease(tenantId: string, leaseId: string) {
  const result = (await api(
    apiEvent({
      routeKey: 'GET /v1/leases/{id}',
      path: `/v1/leases/${leaseId}`,
      pathParameters: { id: leaseId },
      claims: { sub: 'user-1', 'custom:tenant': tenantId },
    }),
    lambdaContext('api', 29_000),
  )) as APIGatewayProxyStructuredResultV2;
  return JSON.parse(result.body ?? '{}');
}

describe('spot billed at the price in force (DynamoDB Local + moto)', () => {
  it('bills a spot lease whose pool price changes mid-run at both prices, each from when it was recorded', async () => {
    const lease = await storedLease(leases, { tenantId: 'tenant-sp', workload: 'batch' });
    await worker({ Records: [commandRecord('provision', lease)] }, lambdaContext('lease-worker', 60_000));
    const [launched] = (await leases.get(lease.tenantId, lease.leaseId))?.instances ?? [];
    expect(launched).toMatchObject({ mode: 'spot', region: 'us-east-1' });
    const instance = launched as NonNullable<typeof launched>;
    const launchAt = instance.launchedAtMs;
    const launchPrice = instance.priceMicroUsdPerHour;

    // The market as the reconciler sees it: unchanged first, so nothing is recorded.
    expect(await refreshSpotPrices({ ...controlPlane, now: () => launchAt + 60_000 })).toBe(0);
    await tick(launchAt + 180_000);

    // Five minutes in, the pool's price moves. moto's spot price is a fixed placeholder, and
    // locally spot is priced as on-demand × a ratio, so the move is a new ratio.
    const onDemand = priceCatalog.onDemandMicroPerHour(instance.instanceType, 'us-east-1');
    const movedPrice = Math.round(onDemand * 0.5);
    expect(movedPrice).not.toBe(launchPrice);
    const moved = {
      ...controlPlane,
      placement: { ...controlPlane.placement, spotCatalogRatio: 0.5 },
      now: () => launchAt + 300_000,
    };
    expect(await refreshSpotPrices(moved)).toBe(1);
    expect(await refreshSpotPrices(moved)).toBe(0);

    await tick(launchAt + 600_000);
    await tick(launchAt + 600_000);
    await tick(launchAt + 420_000);

    vi.useFakeTimers({ toFake: ['Date'], now: launchAt + 600_000 });
    const view = await getLease(lease.tenantId, lease.leaseId);
    vi.useRealTimers();
    expect(view.instances[0].priceInForce).toEqual({
      pricePerHourUsd: microToUsd(movedPrice),
      since: new Date(launchAt + 300_000).toISOString(),
      source: 'catalog-spot-ratio',
    });
    expect(view.instances[0].pricePerHourUsd).toBe(microToUsd(launchPrice));

    // The instance ends at 12 minutes: the closing charge runs at the moved price.
    await leases.stampInstanceEnds([instance], launchAt + 720_000);
    await tick(launchAt + 780_000);
    const closed = (await leases.get(lease.tenantId, lease.leaseId))?.instances[0];
    const expected = costOfPricedSeconds([
      { seconds: 300, priceMicroPerHour: launchPrice },
      { seconds: 420, priceMicroPerHour: movedPrice },
    ]);
    expect(closed).toMatchObject({ meteringOpen: false, billedSeconds: 720, billedMicroUsd: expected });
    const charges = (await usageCharges(env.USAGE_TABLE_NAME ?? '')).filter(
      (charge) => charge.instanceId === instance.instanceId,
    );
    const compute = charges.filter((charge) => charge.dimension === 'compute');
    expect(compute.reduce((sum, charge) => sum + Number(charge.microUsd), 0)).toBe(expected);
    expect(compute).toHaveLength(3);
    // Its 200 GiB volume for the 720 s, at us-east-1's $0.08/GB-month whatever spot's price:
    // 200 × 720 × 80,000 ÷ 2,592,000 = 4,444.4 µ$.
    const storage = charges.filter((charge) => charge.dimension === 'storage');
    expect(storage.reduce((sum, charge) => sum + Number(charge.microUsd), 0)).toBe(4_444);
    expect(charges).toHaveLength(compute.length + storage.length);
  });

  it("with EC2 as the source, records the price moto's DescribeSpotPriceHistory publishes and bills from then on", async () => {
    // Another pool than the first test's: its recorded change (five minutes on) would apply here too.
    const lease = await storedLease(leases, {
      tenantId: 'tenant-sp-ec2',
      workload: 'batch',
      instanceType: 'g6.xlarge',
    });
    await worker({ Records: [commandRecord('provision', lease)] }, lambdaContext('lease-worker', 60_000));
    const [launched] = (await leases.get(lease.tenantId, lease.leaseId))?.instances ?? [];
    const instance = launched as NonNullable<typeof launched>;
    const fromEc2 = {
      ...controlPlane,
      placement: { ...controlPlane.placement, spotPriceSource: 'ec2' as const },
      now: () => instance.launchedAtMs + 120_000,
    };
    const published = (await controlPlane.compute.spotPrices('us-east-1', [instance.instanceType])).get(
      `${instance.zone}/${instance.instanceType}`,
    );
    // moto's placeholder, far below the catalog-priced launch.
    expect(published).toBeLessThan(instance.priceMicroUsdPerHour);
    expect(await refreshSpotPrices(fromEc2)).toBe(1);

    await leases.stampInstanceEnds([instance], instance.launchedAtMs + 600_000);
    await tick(instance.launchedAtMs + 660_000);
    const closed = (await leases.get(lease.tenantId, lease.leaseId))?.instances[0];
    expect(closed).toMatchObject({
      meteringOpen: false,
      billedSeconds: 600,
      billedMicroUsd: costOfPricedSeconds([
        { seconds: 120, priceMicroPerHour: instance.priceMicroUsdPerHour },
        { seconds: 480, priceMicroPerHour: published ?? 0 },
      ]),
    });
  });
});
