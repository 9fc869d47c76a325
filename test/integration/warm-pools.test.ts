import { beforeAll, describe, expect, it } from 'vitest';
import type { WarmMachine } from '../../shared/domain/warm-pools/machine';
import { buildPorts } from '../../shared/lambda/port-factory';
import { warmPoolRepository } from '../../shared/lambda/stores';
import type { WarmPoolRepository } from '../../shared/ports/warm-pools';
import { useFreshResources } from '../support/function-env';

let first: WarmPoolRepository;
let second: WarmPoolRepository;

beforeAll(async () => {
  const env = await useFreshResources();
  // Two workers, each with its own client: the race is DynamoDB's to settle.
  first = buildPorts({ warmPools: warmPoolRepository('readWrite') }, env).warmPools;
  second = buildPorts({ warmPools: warmPoolRepository('readWrite') }, env).warmPools;
});

const machine = (instanceId: string): WarmMachine => ({
  pool: 'race',
  instanceId,
  region: 'us-east-1',
  zone: 'us-east-1a',
  instanceType: 'g5.xlarge',
  imageVersion: 'gpu:v1',
  state: 'ready',
  launchedAtMs: 1,
});

describe('warm machines on DynamoDB Local', () => {
  it('two leases racing for one warm machine: exactly one claim wins, every time', async () => {
    const machines = Array.from({ length: 10 }, (_, i) => machine(`i-race${i}`));
    await first.addMachines(machines);
    for (const m of machines) {
      const won = await Promise.all([first.claim(m, 'lease_a', 2), second.claim(m, 'lease_b', 2)]);
      expect(won.filter(Boolean)).toHaveLength(1);
    }
    const stored = (await first.listMachines()).filter((m) => m.pool === 'race');
    expect(
      stored.every((m) => m.state === 'claimed' && ['lease_a', 'lease_b'].includes(m.claimedBy ?? '')),
    ).toBe(true);
  });

  it('a filler cannot replace a machine a lease claimed first, nor a lease claim one the filler removed', async () => {
    const claimed = machine('i-claimed');
    const removed = machine('i-removed');
    await first.addMachines([claimed, removed]);
    expect(await first.claim(claimed, 'lease_c', 3)).toBe(true);
    expect(await second.remove(claimed, ['launching', 'stopping', 'ready'])).toBe(false);
    expect(await second.remove(removed, ['launching', 'stopping', 'ready'])).toBe(true);
    expect(await first.claim(removed, 'lease_d', 3)).toBe(false);
  });
});
