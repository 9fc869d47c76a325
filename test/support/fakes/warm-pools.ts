import type { WarmMachine, WarmMachineState } from '../../../shared/domain/warm-pools/machine';
import type { WarmPool } from '../../../shared/domain/warm-pools/pool';
import type { WarmPoolFillRequests } from '../../../shared/ports/warm-pool-fill';
import type { WarmPoolRepository } from '../../../shared/ports/warm-pools';
import { Faults, stored } from './faults';

type MachineRef = Pick<WarmMachine, 'pool' | 'instanceId'>;
const key = (m: MachineRef) => `${m.pool}#${m.instanceId}`;

/** Warm pools with DynamoDbWarmPoolRepository's rules: every machine change is conditional on its state. */
export class FakeWarmPoolRepository implements WarmPoolRepository {
  readonly faults = new Faults<keyof WarmPoolRepository>();
  private readonly pools = new Map<string, WarmPool>();
  private readonly machines = new Map<string, WarmMachine>();

  async putPool(pool: WarmPool): Promise<void> {
    this.faults.enter('putPool', [pool]);
    this.pools.set(pool.name, stored(pool));
  }

  async getPool(name: string): Promise<WarmPool | undefined> {
    this.faults.enter('getPool', [name]);
    const pool = this.pools.get(name);
    return pool && stored(pool);
  }

  async listPools(): Promise<WarmPool[]> {
    this.faults.enter('listPools', []);
    return [...this.pools.values()].sort((a, b) => a.name.localeCompare(b.name)).map(stored);
  }

  async deletePool(name: string): Promise<boolean> {
    this.faults.enter('deletePool', [name]);
    return this.pools.delete(name);
  }

  async listMachines(): Promise<WarmMachine[]> {
    this.faults.enter('listMachines', []);
    return [...this.machines.values()].map(stored);
  }

  async addMachines(machines: readonly WarmMachine[]): Promise<void> {
    this.faults.enter('addMachines', [machines]);
    for (const machine of machines) this.machines.set(key(machine), stored(machine));
  }

  async changeState(
    machine: MachineRef,
    from: readonly WarmMachineState[],
    to: WarmMachineState,
    atMs: number,
  ): Promise<boolean> {
    this.faults.enter('changeState', [machine, from, to, atMs]);
    const found = this.machines.get(key(machine));
    if (!found || !from.includes(found.state)) return false;
    this.machines.set(key(machine), { ...found, state: to, ...(to === 'ready' ? { readyAtMs: atMs } : {}) });
    return true;
  }

  async claim(machine: MachineRef, leaseId: string, atMs: number): Promise<boolean> {
    this.faults.enter('claim', [machine, leaseId, atMs]);
    const found = this.machines.get(key(machine));
    if (found?.state !== 'ready') return false;
    this.machines.set(key(machine), { ...found, state: 'claimed', claimedBy: leaseId, claimedAtMs: atMs });
    return true;
  }

  async remove(machine: MachineRef, states: readonly WarmMachineState[]): Promise<boolean> {
    this.faults.enter('remove', [machine, states]);
    const found = this.machines.get(key(machine));
    if (!found || !states.includes(found.state)) return false;
    this.machines.delete(key(machine));
    return true;
  }
}

/** The fill requests sent, in order. */
export class FakeWarmPoolFillRequests implements WarmPoolFillRequests {
  readonly requested: string[] = [];

  async requestFill(pool: string): Promise<void> {
    this.requested.push(pool);
  }
}
