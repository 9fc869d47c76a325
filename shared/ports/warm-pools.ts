import type { WarmMachine, WarmMachineState } from '../domain/warm-pools/machine';
import type { WarmPool } from '../domain/warm-pools/pool';

/** Warm pools and their machines. Every change of a machine is conditional on the state it was read in. */
export interface WarmPoolRepository {
  putPool(pool: WarmPool): Promise<void>;
  getPool(name: string): Promise<WarmPool | undefined>;
  listPools(): Promise<WarmPool[]>;
  /** False when there was no such pool. */
  deletePool(name: string): Promise<boolean>;
  /** Every machine of every pool (one partition, a few hundred items at most). */
  listMachines(): Promise<WarmMachine[]>;
  addMachines(machines: readonly WarmMachine[]): Promise<void>;
  /** Moves the machine from one of `from` to `to`; false when it is no longer in one of them. */
  changeState(
    machine: Pick<WarmMachine, 'pool' | 'instanceId'>,
    from: readonly WarmMachineState[],
    to: WarmMachineState,
    atMs: number,
  ): Promise<boolean>;
  /**
   * Gives a ready machine to the lease: one conditional write (ready → claimed),
   * so two leases racing for it get it once. True when this lease got it.
   */
  claim(machine: Pick<WarmMachine, 'pool' | 'instanceId'>, leaseId: string, atMs: number): Promise<boolean>;
  /** Deletes the record while the machine is in one of `states`; false when it is not (a lease claimed it). */
  remove(
    machine: Pick<WarmMachine, 'pool' | 'instanceId'>,
    states: readonly WarmMachineState[],
  ): Promise<boolean>;
}
