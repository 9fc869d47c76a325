import { costOfSeconds, type MicroUsd } from '../domain/money';

/** Hours in the month EBS prices a GB-month over (AWS bills volumes by the second against a 730-hour month). */
export const HOURS_PER_BILLING_MONTH = 730;

export interface WarmPoolEconomics {
  /** Boot plus initialisation of a fresh machine: what a cold lease waits, and what each refill runs, billed. */
  readonly coldSeconds: number;
  /** StartInstances of a stopped, initialised machine to usable. */
  readonly warmSeconds: number;
  /** On-demand price of one pool machine: what its start-up runs cost. */
  readonly instanceMicroPerHour: MicroUsd;
  /**
   * What an hour of a lease's machine waiting is worth: its price when a
   * waited GPU-minute is worth what it costs; more when people or a pipeline wait too.
   */
  readonly waitMicroPerHour: MicroUsd;
  /** Root volume of each machine, kept while it is stopped. */
  readonly volumeGb: number;
  readonly ebsMicroPerGbMonth: MicroUsd;
}

export interface PoolOutcome {
  readonly size: number;
  /** Arrivals served from a ready machine. */
  readonly warm: number;
  readonly cold: number;
  /** N volumes for the whole replay, plus the billed start-up of every machine launched into the pool. */
  readonly poolCostMicroUsd: MicroUsd;
  /** (cold − warm) seconds of every warm arrival's machine, at `waitMicroPerHour`. */
  readonly waitSavedMicroUsd: MicroUsd;
  readonly netMicroUsd: MicroUsd;
}

/**
 * Replays arrivals (instants, each wanting one pool machine) on a pool kept
 * at `size`: an arrival takes a ready machine if there is one (warm), else
 * launches cold; each machine taken is replaced at once and is ready again
 * `coldSeconds` later, as the filler does it (triggered by the use). The pool
 * starts full; that first fill is paid like any refill.
 */
export function replayWarmPool(
  arrivalsMs: readonly number[],
  spanMs: number,
  size: number,
  economics: WarmPoolEconomics,
): PoolOutcome {
  const refillMs = economics.coldSeconds * 1000;
  // Instants at which taken machines are ready again, in order (arrivals are sorted, the delay is constant).
  const readyAgainAt: number[] = [];
  let nextBack = 0;
  let ready = size;
  let warm = 0;
  for (const at of arrivalsMs) {
    while (nextBack < readyAgainAt.length && (readyAgainAt[nextBack] as number) <= at) {
      ready += 1;
      nextBack += 1;
    }
    if (ready > 0) {
      ready -= 1;
      warm += 1;
      readyAgainAt.push(at + refillMs);
    }
  }
  const launches = size + warm;
  const startUp = costOfSeconds(launches * economics.coldSeconds, economics.instanceMicroPerHour);
  const volumeGbHours = size * economics.volumeGb * (spanMs / 3_600_000);
  const storage = Math.round((volumeGbHours * economics.ebsMicroPerGbMonth) / HOURS_PER_BILLING_MONTH);
  const saved = costOfSeconds(
    warm * (economics.coldSeconds - economics.warmSeconds),
    economics.waitMicroPerHour,
  );
  const poolCostMicroUsd = startUp + storage;
  return {
    size,
    warm,
    cold: arrivalsMs.length - warm,
    poolCostMicroUsd,
    waitSavedMicroUsd: saved,
    netMicroUsd: saved - poolCostMicroUsd,
  };
}

/**
 * The pool size that pays for itself best: the largest net saving among the
 * sizes tried, 0 when no size saves more than it costs.
 */
export function paybackPoolSize(outcomes: readonly PoolOutcome[]): number {
  let best: PoolOutcome | undefined;
  for (const outcome of outcomes)
    if (outcome.netMicroUsd > 0 && (!best || outcome.netMicroUsd > best.netMicroUsd)) best = outcome;
  return best?.size ?? 0;
}
