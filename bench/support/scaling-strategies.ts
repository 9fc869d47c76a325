import type { Datapoint } from '../../shared/domain/scaling';
import type { FleetState, Scaler } from './fleet-simulation';

const MINUTE_MS = 60_000;
const DAY_MINUTES = 1_440;

const mean = (points: readonly Datapoint[]) => points.reduce((sum, d) => sum + d.value, 0) / points.length;
const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

export interface TargetTrackingOptions {
  readonly targetPercent: number;
  readonly minCapacity: number;
  readonly maxCapacity: number;
}

/**
 * How AWS target tracking behaves: a scale-out alarm on 3 of 3 one-minute
 * datapoints above the target, a scale-in alarm on 15 of 15 below 90% of it;
 * the new capacity is proportional (capacity × metric / target, at least one
 * GPU more or less); 300 s cooldowns, a scale-out not held by a scale-in's.
 * Scale-in rounds up, so it never removes more than the proportion says.
 */
export function targetTracking(options: TargetTrackingOptions): Scaler {
  const { targetPercent: target } = options;
  return (state) => {
    const { capacity, utilization, lastAction, nowMs } = state;
    const cooling = lastAction !== null && nowMs - lastAction.atMs < 5 * MINUTE_MS;
    const last3 = utilization.slice(-3);
    if (
      last3.length === 3 &&
      last3.every((d) => d.value > target) &&
      !(cooling && lastAction?.action === 'scale-out')
    ) {
      const wanted = Math.max(capacity + 1, Math.ceil((capacity * mean(last3)) / target));
      return clamp(wanted, options.minCapacity, options.maxCapacity);
    }
    const last15 = utilization.slice(-15);
    if (last15.length === 15 && last15.every((d) => d.value < 0.9 * target) && !cooling) {
      const wanted = Math.min(capacity - 1, Math.ceil((capacity * mean(last15)) / target));
      return clamp(wanted, options.minCapacity, options.maxCapacity);
    }
    return capacity;
  };
}

/**
 * Proportional steps: when the rule scales out, add as many GPUs as the load
 * over the last three minutes asks for at `targetPercent`, not one.
 */
export function proportionalScaleOut(base: Scaler, targetPercent: number, maxCapacity: number): Scaler {
  return (state) => {
    const wanted = base(state);
    if (wanted <= state.capacity) return wanted;
    const proportional = Math.ceil((state.capacity * mean(state.utilization.slice(-3))) / targetPercent);
    return Math.min(maxCapacity, Math.max(wanted, proportional));
  };
}

/**
 * Predictive scale-out from the daily cycle: before each minute, the fleet is
 * held at least at the GPUs the same time of day needed on the past `days`
 * days (their `quantile`, ±`spreadMinutes`, at `targetPercent`). Only demand
 * before the minute is used.
 */
export function predictiveFloor(
  base: Scaler,
  requestsPerMinute: readonly number[],
  requestsPerGpuMinute: number,
  options: {
    days: number;
    quantile: number;
    spreadMinutes: number;
    targetPercent: number;
    maxCapacity: number;
  },
): Scaler {
  const floors = new Map<number, number>();
  const floorAt = (minute: number): number => {
    const known = floors.get(minute);
    if (known !== undefined) return known;
    const floor = computeFloor(minute);
    floors.set(minute, floor);
    return floor;
  };
  const computeFloor = (minute: number): number => {
    const samples: number[] = [];
    for (let day = 1; day <= options.days; day++) {
      for (let offset = -options.spreadMinutes; offset <= options.spreadMinutes; offset++) {
        const past = minute - day * DAY_MINUTES + offset;
        if (past >= 0) samples.push(requestsPerMinute[past] as number);
      }
    }
    if (samples.length === 0) return 0;
    samples.sort((a, b) => a - b);
    const expected = samples[Math.floor((samples.length - 1) * options.quantile)] as number;
    return Math.ceil(expected / (requestsPerGpuMinute * (options.targetPercent / 100)));
  };
  return (state: FleetState) => {
    // The decision at the end of minute m sizes the fleet for minute m + 1 onwards; boots take time,
    // so look a few minutes ahead.
    const next = Math.round(state.nowMs / MINUTE_MS);
    const floor = Math.max(floorAt(next), floorAt(next + 3));
    return Math.min(options.maxCapacity, Math.max(base(state), floor));
  };
}
