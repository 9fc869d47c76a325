import type { WarmMachine, WarmMachineObservation } from './machine';

/** A machine that has not signalled ready this long after launch failed to initialise: replaced. */
export const WARM_INIT_TIMEOUT_MS = 30 * 60_000;

const GONE = new Set(['shutting-down', 'terminated']);

export interface FillInput {
  readonly size: number;
  /** The `name:version` machines must be built from now; undefined when the image has no current version. */
  readonly currentImage: string | undefined;
  /** The pool's machines that no lease claimed. */
  readonly machines: readonly WarmMachine[];
  /** What EC2 says of each machine; absent: EC2 no longer knows it. */
  readonly observed: ReadonlyMap<string, WarmMachineObservation>;
  readonly nowMs: number;
}

export interface FillPlan {
  /** Machines to launch from `currentImage`. */
  readonly launch: number;
  /** Built from another image version (a promotion or a rollback), failed to initialise, or over size. */
  readonly replace: readonly WarmMachine[];
  /** Signalled ready while running: stop them, they are then kept stopped. */
  readonly stop: readonly WarmMachine[];
  /** Stopped after their stop: claimable from now. */
  readonly markReady: readonly WarmMachine[];
  /** EC2 ended them (a failure to start, a console terminate): their records go. */
  readonly forget: readonly WarmMachine[];
}

/**
 * The filler's decision for one pool: what to forget, replace, stop, mark
 * ready, and how many to launch so that the pool holds `size` machines of the
 * current image (counting those still initialising, which will be ready).
 */
export function planFill(input: FillInput): FillPlan {
  const forget: WarmMachine[] = [];
  const replace: WarmMachine[] = [];
  const kept: WarmMachine[] = [];
  for (const machine of input.machines) {
    const seen = input.observed.get(machine.instanceId);
    if (!seen || GONE.has(seen.state)) forget.push(machine);
    else if (machine.imageVersion !== input.currentImage) replace.push(machine);
    else if (
      machine.state === 'launching' &&
      !seen.readySignal &&
      input.nowMs - machine.launchedAtMs > WARM_INIT_TIMEOUT_MS
    )
      replace.push(machine);
    else kept.push(machine);
  }
  // Over size: the least ready go first (still launching, newest first), ready ones last.
  const rank = { launching: 0, stopping: 1, ready: 2, claimed: 3 } as const;
  const ordered = [...kept].sort((a, b) => rank[a.state] - rank[b.state] || b.launchedAtMs - a.launchedAtMs);
  const excess = Math.max(0, kept.length - input.size);
  const surplus = ordered.slice(0, excess);
  const staying = ordered.slice(excess);
  const stop = staying.filter(
    (m) => m.state === 'launching' && input.observed.get(m.instanceId)?.readySignal === true,
  );
  const markReady = staying.filter(
    (m) => m.state === 'stopping' && input.observed.get(m.instanceId)?.state === 'stopped',
  );
  const launch = input.currentImage === undefined ? 0 : Math.max(0, input.size - staying.length);
  return { launch, replace: [...replace, ...surplus], stop, markReady, forget };
}
