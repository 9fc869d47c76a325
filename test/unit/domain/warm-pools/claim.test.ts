import { describe, expect, it } from 'vitest';
import { warmCandidates } from '../../../../shared/domain/warm-pools/claim';
import type { WarmMachine } from '../../../../shared/domain/warm-pools/machine';

const machine = (id: string, extra: Partial<WarmMachine> = {}): WarmMachine => ({
  pool: 'p',
  instanceId: id,
  region: 'us-east-1',
  zone: 'us-east-1a',
  instanceType: 'g5.xlarge',
  imageVersion: 'gpu:v2',
  state: 'ready',
  launchedAtMs: 0,
  readyAtMs: 100,
  ...extra,
});
const demand = {
  mode: 'on-demand' as const,
  instanceTypes: ['g5.xlarge'],
  regions: ['us-east-1'],
  image: 'gpu:v2',
  instances: () => 1,
};

describe('warmCandidates', () => {
  it('offers ready machines of the type, region and image, oldest ready first', () => {
    const found = warmCandidates(
      [
        machine('late', { readyAtMs: 200 }),
        machine('early', { readyAtMs: 50 }),
        machine('busy', { state: 'claimed' }),
        machine('initialising', { state: 'launching' }),
        machine('old-image', { imageVersion: 'gpu:v1' }),
        machine('elsewhere', { region: 'us-west-2' }),
      ],
      demand,
    );
    expect(found?.candidates.map((m) => m.instanceId)).toEqual(['early', 'late']);
    expect(found?.needed).toBe(1);
  });

  it('serves only on-demand leases', () => {
    expect(warmCandidates([machine('a')], { ...demand, mode: 'spot' })).toBeUndefined();
    expect(warmCandidates([machine('a')], { ...demand, mode: 'reserved' })).toBeUndefined();
  });

  it('serves a lease whole or not at all', () => {
    expect(warmCandidates([machine('a')], { ...demand, instances: () => 2 })).toBeUndefined();
    expect(warmCandidates([machine('a'), machine('b')], { ...demand, instances: () => 2 })?.needed).toBe(2);
  });

  it('needs an image version to match', () => {
    expect(warmCandidates([machine('a')], { ...demand, image: undefined })).toBeUndefined();
  });
});
