import { describe, expect, it } from 'vitest';
import { livePools } from '../../../shared/usecases/pools';
import { fakeControlPlane } from '../../support/fakes/control-plane';

describe('the pools a lease could use now', () => {
  it('price spot at what EC2 publishes in the zone, else at the catalog ratio, and carry recent refusals', async () => {
    const plane = fakeControlPlane();
    plane.compute.setSpotPrice('us-east-1', 'us-east-1b', 'g5.xlarge', 333_000);
    plane.placement.unavailable.markUnavailable(
      {
        region: 'us-west-2',
        zone: 'us-west-2a',
        instanceType: 'g5.xlarge',
        mode: 'spot',
        priceMicroUsdPerHour: 0,
        available: true,
      },
      plane.now(),
    );

    const pools = await livePools(plane, {
      instanceTypes: ['g5.xlarge'],
      modes: ['spot'],
      nowMs: plane.now(),
    });

    const onDemand = plane.catalog.onDemandMicroPerHour('g5.xlarge', 'us-east-1');
    expect(
      pools.map((p) => [p.zone, p.priceMicroUsdPerHour, p.priceSource, p.lastCapacityFailureAtMs]),
    ).toEqual([
      [
        'us-east-1a',
        Math.round(onDemand * plane.placement.spotCatalogRatio),
        'catalog-spot-ratio',
        undefined,
      ],
      ['us-east-1b', 333_000, 'ec2-spot-price-history', undefined],
      [
        'us-west-2a',
        Math.round(
          plane.catalog.onDemandMicroPerHour('g5.xlarge', 'us-west-2') * plane.placement.spotCatalogRatio,
        ),
        'catalog-spot-ratio',
        plane.now(),
      ],
    ]);
  });

  it('keep to the regions allowed and ask EC2 for no spot price when only on-demand is wanted', async () => {
    const plane = fakeControlPlane();

    const pools = await livePools(plane, {
      instanceTypes: ['g5.xlarge'],
      regions: ['us-west-2'],
      modes: ['on-demand'],
      nowMs: plane.now(),
    });

    expect(pools.map((p) => `${p.mode} ${p.zone}`)).toEqual(['on-demand us-west-2a']);
    expect(plane.compute.faults.callsOf('spotPrices')).toEqual([]);
  });
});
