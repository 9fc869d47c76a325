import type { Segment } from './replay';

/** Jain's fairness index of non-negative values: 1 when all are equal, 1/n when one holds everything. */
export function jainIndex(values: readonly number[]): number {
  const sum = values.reduce((total, value) => total + value, 0);
  const squares = values.reduce((total, value) => total + value * value, 0);
  return squares === 0 ? 1 : (sum * sum) / (values.length * squares);
}

/**
 * Weighted max-min fair shares of `capacity` GPUs among demands (water
 * filling): every tenant gets min(demand, level × weight), the level as high
 * as the capacity allows. A tenant that asks for less than its weighted
 * share gets all it asks; the rest is split by weight.
 */
export function weightedFairShares(
  demands: readonly { readonly demand: number; readonly weight: number }[],
  capacity: number,
): number[] {
  const shares = demands.map(() => 0);
  let left = Math.min(
    capacity,
    demands.reduce((sum, d) => sum + d.demand, 0),
  );
  let open = demands.map((_, i) => i).filter((i) => (demands[i]?.demand ?? 0) > 0);
  while (left > 1e-9 && open.length > 0) {
    const weights = open.reduce((sum, i) => sum + (demands[i]?.weight ?? 0), 0);
    const level = left / weights;
    const filled = open.filter((i) => {
      const d = demands[i] as { demand: number; weight: number };
      return d.demand - (shares[i] as number) <= level * d.weight;
    });
    if (filled.length === 0) {
      for (const i of open) shares[i] = (shares[i] as number) + level * (demands[i]?.weight ?? 0);
      break;
    }
    for (const i of filled) {
      left -= (demands[i]?.demand ?? 0) - (shares[i] as number);
      shares[i] = demands[i]?.demand ?? 0;
    }
    open = open.filter((i) => !filled.includes(i));
  }
  return shares;
}

export interface FairnessFigures {
  /**
   * Time-weighted mean, over the intervals in which some lease waits, of
   * Jain's index over the tenants with demand (GPUs running or waiting) of
   * their GPUs in use ÷ their weighted max-min fair share of the fleet given
   * that demand. 1 = every tenant holds exactly its fair share.
   */
  readonly jainIndex: number;
  /**
   * The same intervals, restricted to those with two or more tenants waiting:
   * Jain's index of the weighted dominant shares (GPUs in use ÷ fleet ÷
   * weight) of the tenants that wait, which fair share should equalise.
   */
  readonly jainIndexOfWaitingTenants: number | null;
  /** GPU-time in use ÷ the fleet's GPU-time, over the intervals in which some lease waits. */
  readonly cappedUtilization: number;
  /** GPU-time in use ÷ GPU-time of min(fleet, demand), over the whole replay: 1 = no GPU idle while demand waits. */
  readonly workConservation: number;
  /** Seconds during which some lease waits. */
  readonly contendedSeconds: number;
}

const total = (record: Readonly<Record<string, number>>) => Object.values(record).reduce((s, v) => s + v, 0);

export function fairnessOf(
  segments: readonly Segment[],
  weights: Readonly<Record<string, number>>,
  fleetGpus: number,
): FairnessFigures {
  let contended = 0;
  let jainSum = 0;
  let usedContended = 0;
  let waitingJainSum = 0;
  let waitingJainTime = 0;
  let used = 0;
  let servable = 0;
  for (const segment of segments) {
    const seconds = (segment.toMs - segment.fromMs) / 1000;
    const inUse = total(segment.runningGpus);
    const waiting = total(segment.waitingGpus);
    used += inUse * seconds;
    servable += Math.min(fleetGpus, inUse + waiting) * seconds;
    if (waiting === 0 || seconds === 0) continue;
    contended += seconds;
    usedContended += inUse * seconds;
    const tenants = Object.keys(weights).filter(
      (t) => (segment.runningGpus[t] ?? 0) + (segment.waitingGpus[t] ?? 0) > 0,
    );
    const fair = weightedFairShares(
      tenants.map((t) => ({
        demand: (segment.runningGpus[t] ?? 0) + (segment.waitingGpus[t] ?? 0),
        weight: weights[t] ?? 1,
      })),
      fleetGpus,
    );
    jainSum +=
      seconds * jainIndex(tenants.map((t, i) => (segment.runningGpus[t] ?? 0) / (fair[i] as number)));
    const waitingTenants = tenants.filter((t) => (segment.waitingGpus[t] ?? 0) > 0);
    if (waitingTenants.length >= 2) {
      waitingJainTime += seconds;
      waitingJainSum +=
        seconds *
        jainIndex(waitingTenants.map((t) => (segment.runningGpus[t] ?? 0) / fleetGpus / (weights[t] ?? 1)));
    }
  }
  return {
    jainIndex: contended === 0 ? 1 : jainSum / contended,
    jainIndexOfWaitingTenants: waitingJainTime === 0 ? null : waitingJainSum / waitingJainTime,
    cappedUtilization: contended === 0 ? 1 : usedContended / (fleetGpus * contended),
    workConservation: servable === 0 ? 1 : used / servable,
    contendedSeconds: contended,
  };
}
