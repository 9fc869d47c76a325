/**
 * A warm machine's life in the pool: `launching` (initialising, not stopped
 * yet), `stopping` (ready signal seen, StopInstances sent), `ready` (stopped:
 * the only state a lease may claim), `claimed` (a lease took it; no longer the
 * pool's).
 */
export const WARM_MACHINE_STATES = ['launching', 'stopping', 'ready', 'claimed'] as const;
export type WarmMachineState = (typeof WARM_MACHINE_STATES)[number];

export interface WarmMachine {
  readonly pool: string;
  readonly instanceId: string;
  readonly region: string;
  readonly zone: string;
  readonly instanceType: string;
  /** `name:version` it was built from. */
  readonly imageVersion: string;
  readonly state: WarmMachineState;
  readonly launchedAtMs: number;
  /** When the filler saw the ready signal. */
  readonly readyAtMs?: number | undefined;
  readonly claimedBy?: string | undefined;
  readonly claimedAtMs?: number | undefined;
}

/** What EC2 says of a warm machine now: its state and whether it signalled ready. */
export interface WarmMachineObservation {
  readonly state: string;
  readonly readySignal: boolean;
}
